/// A subscriber value that carries an operator's closures, and can give them up while it
/// stays the way to the subscriber behind it.
///
/// An operator that keeps its subscriber after its subscription has ended (as Combine's
/// `zip` does, so that a subscriber holding its subscription forms a cycle only the
/// subscriber breaks) would otherwise keep, through a subscriber such as ``MapInner``,
/// the closure of an operator below it, and whatever that closure captures. At the end it
/// swaps its subscriber for a copy that has let go of them: see ``releasingClosures(of:)``.
protocol ClosureReleasingSubscriber {
  /// Lets go of the closures. The subscriber is never sent anything afterwards.
  mutating func releaseClosures()
}

/// `subscriber` without its closures, if its type can give them up; `nil` otherwise.
///
/// Run only at the end of a subscription (it casts dynamically, and allocates).
func releasingClosures<Value>(of subscriber: Value) -> Value? {
  guard var releasing = subscriber as? any ClosureReleasingSubscriber else { return nil }
  releasing.releaseClosures()
  return releasing as? Value
}
