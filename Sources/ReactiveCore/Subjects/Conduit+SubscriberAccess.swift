// Conduit's ways into its subscriber, apart from the conduit's state and events
// (Conduit.swift).

extension Conduit {
  // The two ways into the subscriber behind a reference. Spelled out rather than one
  // helper taking a closure: measured, the closure version cost each value about 10%.
  // A reference cast forwards the reference it is given; a bit cast would make a
  // copy, whose retain and release cost as much as the rest of a delivery.

  /// Delivers `value` to the subscriber behind `reference`, boxed or not
  /// (``ConduitWord/isBoxed``).
  @inlinable @inline(__always)
  static func send(_ value: Output, to reference: AnyObject, word: ConduitWord)
    -> Subscribers.Demand
  {
    if !word.isBoxed {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(value)
    }
    return unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).receive(value)
  }

  /// Delivers `completion` to the subscriber behind `reference`, boxed or not.
  @inlinable @inline(__always)
  static func send(
    _ completion: Subscribers.Completion<Failure>, to reference: AnyObject, word: ConduitWord
  ) {
    if !word.isBoxed {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(completion: completion)
    }
    unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).receive(completion: completion)
  }

  /// The subscriber, retained, unless it was released.
  @usableFromInline
  var downstream: AnyObject? {
    withStateLock {
      load(.acquiring).isReleased ? nil : target.takeUnretainedValue()
    }
  }
}
