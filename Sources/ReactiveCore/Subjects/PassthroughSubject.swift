/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` doesn't have an initial value
/// or a buffer of the most recently-published element. It drops values if there are no
/// subscribers, or a subscriber's demand is zero.
///
///     let subject = PassthroughSubject<Int, Never>()
///     let cancellable = subject.sink { print($0) }
///     subject.send(1)
///     // Prints "1"
///
/// - Note: All methods are thread-safe. Values sent from several threads at once reach
///   each subscriber one at a time; a subscriber may `send` to the subject re-entrantly.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline
  let hub: SubjectHub<Output, Failure>

  /// Creates a subject with no subscribers.
  public init() { hub = SubjectHub(kind: .passthrough) }

  /// A subject whose subscriptions describe themselves as `kind`
  /// (`ObservableObjectPublisher` uses this).
  init(kind: SubjectKind) { hub = SubjectHub(kind: kind) }

  /// Attaches the subscriber; a subscriber that arrives after completion gets the
  /// completion at once.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    hub.attach(subscriber, parent: self, needsInitialValue: false)
  }

  /// Sends a value to every subscriber that has demand.
  @inlinable
  public func send(_ input: Output) {
    hub.send(input, storing: false)
  }

  /// Sends a completion to every subscriber; later values and completions are ignored.
  public func send(completion: Subscribers.Completion<Failure>) {
    hub.complete(completion)
  }

  /// Cancels the subscriptions the subject received from upstream publishers, as
  /// Combine's subjects do when they go away.
  deinit { hub.cancelUpstreams() }

  /// Requests unlimited values from an upstream subscription, which the subject keeps
  /// until it completes.
  public func send(subscription: any Subscription) {
    hub.adopt(subscription)
  }
}
