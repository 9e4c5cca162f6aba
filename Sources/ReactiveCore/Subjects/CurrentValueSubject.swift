/// A subject that wraps a single value and publishes a new element whenever the value
/// changes.
///
/// A new subscriber receives the current value as soon as it requests demand, then every
/// later value.
///
///     let subject = CurrentValueSubject<Int, Never>(1)
///     let cancellable = subject.sink { print($0) }
///     subject.value = 2
///     // Prints "1", "2"
///
/// - Note: All methods are thread-safe; see ``PassthroughSubject`` for the delivery rules.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline
  let hub: SubjectHub<Output, Failure>

  /// The value wrapped by this subject, published as a new element whenever it changes.
  public var value: Output {
    get { hub.currentValue.unsafelyUnwrapped }
    set {
      // As in Combine, the value changes even after completion; only live subjects send.
      hub.setCurrentValue(newValue)
      send(newValue)
    }
  }

  /// Creates a current value subject with the given initial value.
  ///
  /// - Parameter value: The initial value to publish.
  public init(_ value: Output) {
    hub = SubjectHub(kind: .currentValue, currentValue: value)
  }

  /// A subject whose subscriptions describe themselves as `kind` (`@Published` uses this).
  init(_ value: Output, kind: SubjectKind) {
    hub = SubjectHub(kind: kind, currentValue: value)
  }

  /// Attaches the subscriber; it receives the current value when it first requests
  /// demand.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    hub.attach(subscriber, parent: self, needsInitialValue: true)
  }

  /// Stores the value and sends it to every subscriber that has demand.
  @inlinable
  public func send(_ input: Output) {
    hub.send(input, storing: true)
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
