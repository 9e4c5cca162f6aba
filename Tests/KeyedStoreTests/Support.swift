import KeyedStore
import ReactiveCore

extension StoreKey where Value == Bool {
  static let someBool = StoreKey("someBool")
}

extension StoreKey where Value == Int {
  static let someInt = StoreKey("someInt")
  static let counter = StoreKey("counter")
}

extension StoreKey where Value == String {
  static let someString = StoreKey("someString")
  /// Deliberately clashes with `someInt`'s name.
  static let clashing = StoreKey("someInt")
}

/// A thread-safe log for observer closures, which are `@Sendable`.
final class Recorder<Value: Sendable>: Sendable {
  private let box = LockedBox<[Value]>([])
  func append(_ value: Value) { box.withLock { $0.append(value) } }
  var values: [Value] { box.withLock { $0 } }
}

final class TokenObject: Sendable {}
