/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
  /// Returns the "empty" subscription.
  ///
  /// Use the empty subscription when you need a `Subscription` that ignores requests and
  /// cancellation, for example to complete a subscriber at once.
  public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``: requests and cancels do nothing.
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, Sendable
{
  static let shared = EmptySubscription()

  func request(_ demand: Subscribers.Demand) {}
  func cancel() {}
  var description: String { "Empty" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}

/// Holds a subscription that is not a class, for storage that takes class references.
final class BoxedSubscription: Subscription, @unchecked Sendable {
  let wrapped: any Subscription

  init(_ wrapped: any Subscription) { self.wrapped = wrapped }

  var combineIdentifier: CombineIdentifier { wrapped.combineIdentifier }

  func request(_ demand: Subscribers.Demand) { wrapped.request(demand) }

  func cancel() { wrapped.cancel() }
}

/// A subscription that is a class, as a non-generic base class: a subscriber can check
/// for it with a plain class cast, which costs a fraction of a cast to
/// `any Subscription & AnyObject` (a protocol-conformance lookup), and then hold it as one
/// reference.
@usableFromInline
class SubscriptionObject: Subscription, @unchecked Sendable {
  @usableFromInline
  init() {}

  @usableFromInline
  func request(_ demand: Subscribers.Demand) { fatalError("SubscriptionObject is abstract") }

  @usableFromInline
  func cancel() { fatalError("SubscriptionObject is abstract") }
}
