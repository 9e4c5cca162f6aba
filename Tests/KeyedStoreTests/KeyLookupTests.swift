import KeyedStore
import ReactiveCore
import Testing

/// A store finds a key's entry by the hash the key computed when it was made, in a table
/// of its own: these pin down that the table still behaves as a dictionary keyed by the
/// name's `String` equality.
@Suite struct KeyLookupTests {
  /// "é" as one scalar and as "e" plus a combining accent: different bytes, equal
  /// strings, so one key, as `String` and `StoreKey` equality say.
  @Test func canonicallyEquivalentNamesAreOneKey() {
    let store = Store()
    let composed = StoreKey<Int>("caf\u{E9}")
    let decomposed = StoreKey<Int>("cafe\u{301}")
    #expect(composed == decomposed)
    let seen = Recorder<Int>()
    store.registerObserver(for: decomposed) { seen.append($0.newValue) }
    #expect(store.stage(1, for: composed) == .committed)
    #expect(store.value(for: decomposed) == 1)
    #expect(store.stage(1, for: decomposed) == .discardedAsRedundant)
    #expect(store.stage(2, for: decomposed) == .committed)
    #expect(store.value(for: composed) == 2)
    #expect(seen.values == [1, 2])
  }

  /// Enough keys that the table grows several times and probes past taken slots; each
  /// key keeps its own value and observers, and a name made at run time (a heap string,
  /// not a literal) finds the same entry.
  @Test(arguments: [1, 5, 9, 100, 2_000])
  func everyKeyKeepsItsOwnValueAsTheTableGrows(count: Int) {
    let store = Store()
    let seen = Recorder<String>()
    for index in 0..<count {
      let key = StoreKey<Int>("key.\(index).with-a-name-longer-than-fifteen-bytes")
      store.registerObserver(for: key) { seen.append("\(index)=\($0.newValue)") }
      #expect(store.stage(index * 10, for: key) == .committed)
    }
    for index in 0..<count {
      let key = StoreKey<Int>("key.\(index).with-a-name-longer-than-fifteen-bytes")
      #expect(store.value(for: key) == index * 10)
    }
    #expect(seen.values == (0..<count).map { "\($0)=\($0 * 10)" })
    #expect(store.value(for: StoreKey<Int>("key.\(count)")) == nil)
  }

  /// A name bound to one value type is still refused for another, whichever spelling of
  /// the name comes second.
  @Test func aNameKeepsItsTypeAcrossSpellings() {
    let store = Store()
    store.stage(1, for: StoreKey<Int>("caf\u{E9}"))
    let outcome = store.stage("one", for: StoreKey<String>("cafe\u{301}"))
    guard case .rejected(.typeMismatch) = outcome else {
      Issue.record("expected a type mismatch, got \(outcome)")
      return
    }
    #expect(store.value(for: StoreKey<Int>("caf\u{E9}")) == 1)
  }

  /// The hash a key carries does not change what the key says about persisting.
  @Test func keysKeepWhetherTheyPersist() {
    #expect(StoreKey<Int>("a").isPersisted)
    #expect(StoreKey<Int>("a", persisted: true).isPersisted)
    #expect(!StoreKey<Int>("a", persisted: false).isPersisted)
    #expect(StoreKey<Int>("a", persisted: false) == StoreKey<Int>("a"))
    #expect(StoreKey<Int>("a", persisted: false).hashValue == StoreKey<Int>("a").hashValue)
  }
}
