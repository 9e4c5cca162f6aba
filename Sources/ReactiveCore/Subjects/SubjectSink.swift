/// `sink` on a `PassthroughSubject` or a `CurrentValueSubject`, without a
/// `Subscribers.Sink`.
///
/// A live `subject.sink { … }` was a `Subscribers.Sink`, the subject's ``Conduit`` and an
/// `AnyCancellable` (218.5 bytes with the subject's list, against issue 30's 194). Here the
/// conduit's subscriber is a bare holder of the closures, and the `AnyCancellable` cancels
/// the conduit: what the sink did besides calling the closures, the conduit already does.
/// It ends once (on completion or cancel), drops values after that, keeps deliveries
/// from overlapping, and lets go of its subscriber, and so of the closures and whatever
/// they captured, once it has ended and no delivery is calling in (at once, or when the
/// delivery in progress returns). No `Subscribers.Sink` exists for the caller to see:
/// `sink` returns only the `AnyCancellable`.
extension SubjectHub {
  /// Subscribes `target` (made only then) to `publisher` through the subject's conduit
  /// if `publisher` is a `PassthroughSubject` or a `CurrentValueSubject`, and returns what
  /// cancels it; `nil` for any other publisher. For a concrete publisher type the casts
  /// fold away where `sink` is specialised.
  @inlinable @inline(__always)
  static func sinkIfSubject<P: Publisher, Target: Subscriber>(
    _ publisher: P, _ target: @autoclosure () -> Target
  ) -> AnyCancellable? where Target.Input == Output, Target.Failure == Failure {
    if let subject = publisher as? PassthroughSubject<Output, Failure> {
      return subject.hub.sink(target(), parent: subject, needsInitialValue: false)
    }
    if let subject = publisher as? CurrentValueSubject<Output, Failure> {
      return subject.hub.sink(target(), parent: subject, needsInitialValue: true)
    }
    return nil
  }

  /// Subscribes `target`, which asks for unlimited values, and returns what cancels it.
  @inlinable
  func sink<Target: Subscriber, Parent: ConduitParent<Output, Failure>>(
    _ target: Target, parent: Parent, needsInitialValue: Bool
  ) -> AnyCancellable
  where Target.Input == Output, Target.Failure == Failure {
    guard let conduit = attach(target, parent: parent, needsInitialValue: needsInitialValue)
    else {
      // The subject had completed: the target got the completion and is released with
      // this frame, as a sink lets go of its closures once complete.
      return AnyCancellable(object: CompletedSubjectSink.shared)
    }
    return AnyCancellable(object: conduit)
  }
}

/// A subject sink's subscriber when only values matter (`sink(receiveValue:)` on a
/// subject that never fails): one closure, so that a live sink is the conduit, this
/// (malloc's 48-byte chunk) and its `AnyCancellable`.
@usableFromInline
final class SubjectValueSink<Input, Failure: Error>: Subscriber, ClassSubscriptionAdopting,
  @unchecked Sendable
{
  @usableFromInline
  let receiveValue: (Input) -> Void

  @inlinable
  init(_ receiveValue: @escaping (Input) -> Void) { self.receiveValue = receiveValue }

  @usableFromInline
  func receive(subscription: any Subscription) { subscription.request(.unlimited) }

  @usableFromInline
  func adopt(_ subscription: any Subscription & AnyObject) { subscription.request(.unlimited) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue(input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {}
}

/// A subject sink's subscriber with both closures (`sink(receiveCompletion:receiveValue:)`).
@usableFromInline
final class SubjectClosureSink<Input, Failure: Error>: Subscriber, ClassSubscriptionAdopting,
  @unchecked Sendable
{
  @usableFromInline
  let receiveValue: (Input) -> Void
  @usableFromInline
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  @inlinable
  init(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Input) -> Void
  ) {
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }

  @usableFromInline
  func receive(subscription: any Subscription) { subscription.request(.unlimited) }

  @usableFromInline
  func adopt(_ subscription: any Subscription & AnyObject) { subscription.request(.unlimited) }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue(input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { receiveCompletion(completion) }
}

/// What a sink on a subject that had already completed returns: nothing is left to cancel.
@usableFromInline
final class CompletedSubjectSink: Cancellable, Sendable {
  @usableFromInline
  static let shared = CompletedSubjectSink()

  @usableFromInline
  func cancel() {}
}
