import ReactiveCore

/// What a subscription finds when something tries to end it: already ended, or ending now
/// with a subscription left to cancel outside the lock.
@usableFromInline
enum Ending {
  /// It had ended before: nothing to do.
  case alreadyEnded
  /// It ends now; cancel this subscription, if any, then send the completion.
  case ends(cancelling: (any Subscription)?)
}
