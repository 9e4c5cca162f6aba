import ReactiveCore

/// A relay that broadcasts values to its current subscribers, like a
/// `PassthroughSubject` that never fails and that callers cannot finish.
///
///     let taps = PassthroughRelay<Void>()
///     let cancellable = taps.sink { print("tap") }
///     taps.accept()
///     // Prints "tap"
///
/// - Note: Thread-safe, like `PassthroughSubject`. It finishes its subscribers when it is
///   deallocated.
public final class PassthroughRelay<Output>: Relay, @unchecked Sendable {
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  private let subject = PassthroughSubject<Output, Never>()

  /// Creates a relay with no subscribers.
  public init() {}

  deinit { subject.send(completion: .finished) }

  /// Relays a value to the current subscribers.
  ///
  /// - Parameter value: The value to send.
  public func accept(_ value: Output) { subject.send(value) }

  /// Attaches the subscriber.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subject.receive(subscriber: subscriber)
  }
}
