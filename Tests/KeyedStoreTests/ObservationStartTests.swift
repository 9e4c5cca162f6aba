import Dispatch
import Foundation
import KeyedStore
import ReactiveCore
import Testing

@Suite struct InitialValuePublisherTests {
  @Test func sendsTheCurrentValueFirstThenEachChange() {
    let store = Store()
    store.stage(1, for: .someInt)
    let heard = Recorder<Mutation<Int>>()
    let subscription = store.publisher(for: .someInt, initial: true).sink { heard.append($0) }
    store.stage(2, for: .someInt)
    #expect(heard.values.map(\.newValue) == [1, 2])
    #expect(heard.values.first?.oldValue == 1)
    #expect(heard.values.map(\.origin) == [.thisStore, .thisStore])
    subscription.cancel()
    store.stage(3, for: .someInt)
    #expect(heard.values.count == 2)
  }

  @Test func aKeyWithoutAValueSendsNothingFirst() {
    let store = Store()
    let heard = Recorder<Int>()
    let subscription = store.publisher(for: .someInt, initial: true).sink {
      heard.append($0.newValue)
    }
    #expect(heard.values.isEmpty)
    store.stage(5, for: .someInt)
    #expect(heard.values == [5])
    subscription.cancel()
  }

  @Test func withoutInitialItIsThePlainPublisher() {
    let store = Store()
    store.stage(1, for: .someInt)
    let heard = Recorder<Int>()
    let subscription = store.publisher(for: .someInt, initial: false).sink {
      heard.append($0.newValue)
    }
    store.stage(2, for: .someInt)
    #expect(heard.values == [2])
    subscription.cancel()
  }

  /// Subscribing while another thread stages 1, 2, 3, … without pause: what arrives is
  /// consecutive from the first value on — nothing missed between the read and the
  /// registration, nothing sent twice.
  @Test func theCurrentValueAndTheChangesHaveNoGap() {
    for _ in 0..<20 {
      let store = Store()
      store.stage(0, for: .counter)
      let started = DispatchSemaphore(value: 0)
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        for value in 1...2_000 {
          store.stage(value, for: .counter)
          if value == 200 { started.signal() }
        }
        done.signal()
      }
      started.wait()
      let heard = Recorder<Int>()
      let subscription = store.publisher(for: .counter, initial: true).sink {
        heard.append($0.newValue)
      }
      done.wait()
      let values = heard.values
      #expect(values.last == 2_000)
      #expect(values == Array((values.first ?? 0)...2_000))
      subscription.cancel()
    }
  }

  @Test func aPersistedKeySendsItsStoredValueFirst() throws {
    let folder = TemporaryFolder()
    write(storeFile(values: #"{"someInt": 9}"#), to: folder.file())
    let store = try openStore(folder.file())
    let heard = Recorder<Int>()
    let subscription = store.publisher(for: .someInt, initial: true).sink {
      heard.append($0.newValue)
    }
    #expect(heard.values == [9])
    subscription.cancel()
  }
}

@Suite struct MutationOriginTests {
  @Test func aLocalStageComesFromThisStore() {
    let store = Store()
    let heard = Recorder<MutationOrigin>()
    store.registerObserver(for: .someInt) { heard.append($0.origin) }
    store.stage(1, for: .someInt)
    store.update(0, for: .someInt) { $0 += 1 }
    store.post(.someInt)
    #expect(heard.values == [.thisStore, .thisStore, .thisStore])
  }

  @Test func anotherStoresWriteInThisProcessComesFromAnotherStore() throws {
    let folder = TemporaryFolder()
    let first = try openStore(folder.file())
    let second = try openStore(folder.file())
    let heard = Recorder<MutationOrigin>()
    let anyHeard = Recorder<MutationOrigin>()
    first.registerObserver(for: .someInt) { heard.append($0.origin) }
    first.registerObserver(for: [AnyStoreKey(.someInt)]) { anyHeard.append($0.origin) }
    second.stage(4, for: .someInt)
    try second.flush()
    try first.refresh()
    #expect(heard.values == [.anotherStore])
    #expect(anyHeard.values == [.anotherStore])
  }

  @Test func anotherProcessWriteComesFromAnotherProcess() throws {
    guard let program = childProgram() else {
      Issue.record("KeyedStoreCrashChild was not built beside the tests")
      return
    }
    let folder = TemporaryFolder()
    let store = try openStore(folder.file())
    let heard = Recorder<MutationOrigin>()
    store.registerObserver(for: StoreKey<Int>("child.0")) { heard.append($0.origin) }
    let (_, errors, succeeded) = try ChildProcess(program, ["writer", folder.file(), "child", "1"])
      .wait()
    #expect(succeeded, "child failed: \(errors)")
    try store.refresh()
    #expect(heard.values == [.anotherProcess])
  }
}
