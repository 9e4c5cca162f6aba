import Foundation
import KeyedStore
import ReactiveCore
import Testing

/// A key named at run time, as a server's feature flags are.
private func flag(_ name: String) -> StoreKey<Bool> { StoreKey("flag.\(name)") }

@Suite struct ListedKeyTests {
  /// Keys staged here and keys only in the file are listed, sorted; a key no typed key
  /// has used comes with its JSON.
  @Test func listsTypedAndUntypedKeys() throws {
    let folder = TemporaryFolder()
    write(
      #"{"format":"ripple.keyedstore","version":1,"values":{"flag.beta":true,"limits":{"rate":5}}}"#,
      to: folder.file())
    let store = try openStore(folder.file())
    store.stage(3, for: .someInt)
    let listed = store.listedKeys
    #expect(listed.map(\.name) == ["flag.beta", "limits", "someInt"])
    #expect(listed[0].valueTypeName == nil)
    #expect(listed[0].untypedValue?.json == "true")
    #expect(try listed[0].untypedValue?.decode(as: Bool.self) == true)
    #expect(listed[1].untypedValue?.json == #"{"rate":5}"#)
    #expect(listed[2].valueTypeName == "Int")
    #expect(listed[2].untypedValue == nil)
    // Reading the name with a typed key binds it.
    #expect(store.value(for: flag("beta")) == true)
    #expect(store.listedKeys.first?.valueTypeName == "Bool")
  }

  @Test func anInMemoryStoreListsWhatWasStaged() {
    let store = Store()
    #expect(store.listedKeys.isEmpty)
    store.stage("x", for: .someString)
    #expect(store.listedKeys.map(\.name) == ["someString"])
  }
}

@Suite struct EveryKeyObserverTests {
  /// Every mutation of every key reaches the observer in commit order: keys bound before
  /// and after it registered, and a batch after the whole batch committed.
  @Test func hearsEveryKeyInCommitOrder() throws {
    let store = Store()
    store.stage(1, for: .someInt)
    let heard = Recorder<String>()
    let receipt = store.registerObserverForAllKeys { mutation in
      heard.append("\(mutation.key.name)=\(mutation.newValue)")
    }
    store.stage(2, for: .someInt)
    store.stage("new key", for: .someString)
    try store.batch { batch in
      batch.stage(true, for: .someBool)
      batch.stage(3, for: .someInt)
    }
    store.retireObserver(receipt)
    store.stage(4, for: .someInt)
    #expect(heard.values == ["someInt=2", "someString=new key", "someBool=true", "someInt=3"])
  }

  /// A key another store creates in the shared file — a name this store never used —
  /// reaches the observer as JSON, with its origin; so do typed keys another store
  /// changes.
  @Test func hearsKeysAnotherStoreCreates() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    let heard = Recorder<AnyMutation>()
    store.registerObserverForAllKeys { heard.append($0) }
    let other = try openStore(folder.file())
    other.stage(true, for: flag("new"))
    other.stage(2, for: .someInt)
    try other.flush()
    try store.refresh()
    let byName = Dictionary(heard.values.map { ($0.key.name, $0) }) { first, _ in first }
    let created = try #require(byName["flag.new"])
    #expect(ObjectIdentifier(created.key.valueType) == ObjectIdentifier(UntypedValue.self))
    #expect((created.newValue as? UntypedValue)?.json == "true")
    #expect(created.oldValue == nil)
    #expect(created.origin == .anotherStore)
    #expect(byName["someInt"]?.newValue as? Int == 2)
    #expect(byName["someInt"]?.origin == .anotherStore)
    #expect(store.value(for: flag("new")) == true)
  }

  /// The publisher registers per subscription and retires on cancel.
  @Test func thePublisherRetiresOnCancel() {
    let store = Store()
    var names: [String] = []
    let subscription = store.publisherForAllKeys().sink { names.append($0.key.name) }
    store.stage(1, for: .someInt)
    subscription.cancel()
    store.stage(2, for: .someInt)
    #expect(names == ["someInt"])
  }
}

@Suite struct UndecodableChangeTests {
  /// A value of the wrong type written into the file by another program gives one answer
  /// everywhere: the open store reads `nil` (as a store opened now does),
  /// `checkedValue(for:)` throws naming the key, and the failure is published.
  @Test func aWrongTypeFromAnotherProgramReadsNilEverywhereAndIsPublished() throws {
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    store.stage(1, for: .someInt)
    try store.flush()
    let published = Recorder<StoreError>()
    let subscription = store.errors.sink { published.append($0) }
    defer { subscription.cancel() }
    write(
      #"{"format":"ripple.keyedstore","version":1,"values":{"someInt":"not a number"}}"#,
      to: folder.file())
    try store.refresh()
    #expect(store.value(for: .someInt) == nil)
    #expect(throws: StoreError.self) { try store.checkedValue(for: .someInt) }
    let fresh = try openStore(folder.file())
    #expect(fresh.value(for: .someInt) == nil)
    #expect(throws: StoreError.self) { try fresh.checkedValue(for: .someInt) }
    #expect(eventually { !published.values.isEmpty })
    guard case .undecodableValue(let key, _, _, _)? = published.values.first else {
      Issue.record("expected an undecodable value, got \(published.values)")
      return
    }
    #expect(key == "someInt")
  }
}
