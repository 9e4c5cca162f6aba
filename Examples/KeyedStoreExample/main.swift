import Foundation
import Ripple

// A port of Elastomeric's README to Ripple: Elastomer becomes StoreKey, on Store.shared.

// Declarations
extension StoreKey where Value == Bool { static let someBool = StoreKey("someBool") }
extension StoreKey where Value == String { static let someString = StoreKey("someString") }
extension StoreKey where Value == Int { static let someInt = StoreKey("someInt") }

// Equality (custom types): Equatable values drop redundant stages.
struct FilterVCPresentation: Equatable, Sendable {
  var indexPath: [Int]?
  var isPresented: Bool
}
extension StoreKey where Value == FilterVCPresentation {
  static let filterPresentation = StoreKey("filterPresentation")
}

// Observe values
// 1. Observe any mutations to the key's data
let boolReceipt = StoreKey.someBool.registerObserver { mutation in
  print(
    "old value \(mutation.oldValue.map(String.init) ?? "none") was replaced by new value \(mutation.newValue)"
  )
}
// 2. New observers return receipts that can be captured for later retirement
let stringObserverReceipt = StoreKey.someString.registerObserver { _ in
  print("The string did change")
}
// 4. New observers may be registered in batches
let receipts = [AnyStoreKey(.someString), AnyStoreKey(.someInt)].registerObservers { mutation in
  switch mutation.key {
  case AnyStoreKey(.someString): print("The string did change (batch observer)")
  case AnyStoreKey(.someInt): print("The int did change (batch observer)")
  default: break
  }
}

// Staging values (write)
// 1. Add or change a value on a per-value basis
StoreKey.someBool.stageValue(true)
StoreKey.someString.stageValue("hello!")
StoreKey.someInt.stageValue(27)
// 2. Staging a value of an unassociated type does not compile: StoreKey.someInt.stageValue(Float(27))
// 3. A value may be staged after a delay (cancellable)
let pending = StoreKey.someBool.stageValue(false, after: .seconds(12))
pending.cancel()
print("delayed stage cancelled before it ran")
// 4. Redundant entries are ignored by default, but that may be overridden
print("redundant stage: \(StoreKey.someBool.stageValue(true))")
print("forced stage: \(StoreKey.someBool.stageValue(true, discardingRedundancy: false))")
// 5. Values may be staged in a batch operation (type-checked, atomic)
try [
  AnyStoreKey(.someBool): false, AnyStoreKey(.someInt): 72, AnyStoreKey(.someString): "goodbye!",
].stage()
do {
  try [AnyStoreKey(.someInt): "seventy-two"].stage()
} catch {
  print("batch rejected: \(error)")
}

// Expressing values (read)
// 1. Recall a value
StoreKey.someBool.expressValue { value in
  print("Boolean derived from value in closure \(value.map(String.init) ?? "none")")
}
// 2. Recall multiple values at once
[AnyStoreKey(.someBool), AnyStoreKey(.someString), AnyStoreKey(.someInt)].expressValues { dict in
  print(
    "Boolean derived from value subscripted from dictionary \(dict[AnyStoreKey(.someBool)] as? Bool ?? false)"
  )
}

// 3. An observer may be retired with the associated receipt
StoreKey.someString.retireObserver(stringObserverReceipt)
receipts.retireAll()
StoreKey.someString.stageValue("nobody hears this")

// Posting notifies observers without changing the value
StoreKey.someBool.post()
StoreKey.someBool.retireObserver(boolReceipt)

// Custom Equatable types
StoreKey.filterPresentation.stageValue(FilterVCPresentation(indexPath: [0, 1], isPresented: true))
print("presentation staged: \(Store.shared[.filterPresentation]!.isPresented)")

// Persistence: a store backed by a file keeps its Codable values across launches.
// Run the example twice: the launch count read back from the file goes up each time.
extension StoreKey where Value == Int { static let launchCount = StoreKey("launchCount") }
extension StoreKey where Value == String {
  // Codable, but kept out of the file on purpose.
  static let sessionToken = StoreKey("sessionToken", persisted: false)
}

let statePath = FileManager.default.temporaryDirectory
  .appendingPathComponent("RippleKeyedStoreExample/state.json").path
let persistent = try Store(persistence: .file(path: statePath))
let launches = persistent.update(0, for: .launchCount) { $0 += 1 }
persistent.stage("not written to disk", for: .sessionToken)
try persistent.flush()  // durable now: written, synced, renamed over the old file
if launches == 1 {
  print("first launch: launchCount = 1 is now in \(statePath); run again to read it back")
} else {
  print("launchCount = \(launches): read back from \(statePath), written by an earlier run")
}
