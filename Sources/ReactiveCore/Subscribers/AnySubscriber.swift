/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to
/// expose, or to build a subscriber from closures.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let box: AnySubscriberBase<Input, Failure>

  /// A unique identifier for the wrapped subscriber.
  public let combineIdentifier: CombineIdentifier

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  ///
  /// - Parameter s: The subscriber to type-erase.
  @inlinable
  public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
    if let erased = s as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    box = AnySubscriberBox(s)
    combineIdentifier = s.combineIdentifier
  }

  /// Creates a type-erasing subscriber that forwards everything to a subject.
  ///
  /// - Parameter s: The subject that receives the values and completion.
  public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
    self.init(SubjectSubscriber(s))
  }

  /// Creates a type-erasing subscriber that executes the provided closures.
  ///
  /// - Parameters:
  ///   - receiveSubscription: A closure to execute when the subscriber receives the
  ///     initial subscription from the publisher.
  ///   - receiveValue: A closure to execute when the subscriber receives a value.
  ///   - receiveCompletion: A closure to execute when the subscriber receives a
  ///     completion callback.
  public init(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    box = ClosureSubscriberBox(
      receiveSubscription: receiveSubscription, receiveValue: receiveValue,
      receiveCompletion: receiveCompletion)
    combineIdentifier = CombineIdentifier()
  }

  /// Forwards the subscription to the wrapped subscriber.
  @inlinable
  public func receive(subscription: any Subscription) { box.receive(subscription: subscription) }

  /// Forwards a value to the wrapped subscriber.
  @inlinable
  public func receive(_ value: Input) -> Subscribers.Demand { box.receive(value) }

  /// Forwards the completion to the wrapped subscriber.
  @inlinable
  public func receive(completion: Subscribers.Completion<Failure>) {
    box.receive(completion: completion)
  }

  /// The wrapped subscriber's description, or `"Anonymous AnySubscriber"`.
  public var description: String { box.description }

  /// The wrapped subscriber's mirror.
  public var customMirror: Mirror { box.customMirror }

  /// The same as ``description``.
  public var playgroundDescription: Any { description }
}

/// The erased storage of an ``AnySubscriber``.
@usableFromInline
class AnySubscriberBase<Input, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  init() {}
  @usableFromInline
  func receive(subscription: any Subscription) { fatalError("abstract") }
  @usableFromInline
  func receive(_ value: Input) -> Subscribers.Demand { fatalError("abstract") }
  @usableFromInline
  func receive(completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
  var description: String { "Anonymous AnySubscriber" }
  var customMirror: Mirror { Mirror(reflecting: self) }
}

@usableFromInline
final class AnySubscriberBox<Base: Subscriber>: AnySubscriberBase<Base.Input, Base.Failure>,
  @unchecked Sendable
{
  @usableFromInline
  let base: Base

  @usableFromInline
  init(_ base: Base) { self.base = base }

  @inlinable
  override func receive(subscription: any Subscription) { base.receive(subscription: subscription) }

  @inlinable
  override func receive(_ value: Base.Input) -> Subscribers.Demand { base.receive(value) }

  @inlinable
  override func receive(completion: Subscribers.Completion<Base.Failure>) {
    base.receive(completion: completion)
  }

  override var description: String { String(describing: base) }

  override var customMirror: Mirror {
    (base as? any CustomReflectable)?.customMirror ?? Mirror(reflecting: base)
  }
}

final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBase<Input, Failure>,
  @unchecked Sendable
{
  let onSubscription: ((any Subscription) -> Void)?
  let onValue: ((Input) -> Subscribers.Demand)?
  let onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  init(
    receiveSubscription: ((any Subscription) -> Void)?,
    receiveValue: ((Input) -> Subscribers.Demand)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  ) {
    onSubscription = receiveSubscription
    onValue = receiveValue
    onCompletion = receiveCompletion
  }

  override func receive(subscription: any Subscription) { onSubscription?(subscription) }
  override func receive(_ value: Input) -> Subscribers.Demand { onValue?(value) ?? .none }
  override func receive(completion: Subscribers.Completion<Failure>) { onCompletion?(completion) }

  /// Combine reflects a closure-built subscriber as its description: a string, no children.
  override var customMirror: Mirror { Mirror(reflecting: description) }
}
