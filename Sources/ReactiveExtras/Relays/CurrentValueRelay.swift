import ReactiveCore

/// A relay that holds a current value and sends it to each new subscriber, then every
/// accepted value: a `CurrentValueSubject` that never fails and that callers cannot
/// finish.
///
///     let name = CurrentValueRelay("Ada")
///     let cancellable = name.sink { print($0) }
///     name.accept("Grace")
///     // Prints "Ada", "Grace"
///
/// - Note: Thread-safe, like `CurrentValueSubject`. It finishes its subscribers when it is
///   deallocated.
public final class CurrentValueRelay<Output>: Relay, @unchecked Sendable {
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  private let subject: CurrentValueSubject<Output, Never>

  /// The current value.
  public var value: Output { subject.value }

  /// Creates a relay holding `value`.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Output) { subject = CurrentValueSubject(value) }

  deinit { subject.send(completion: .finished) }

  /// Makes `value` the current value and sends it to the subscribers.
  ///
  /// - Parameter value: The new value.
  public func accept(_ value: Output) { subject.send(value) }

  /// Attaches the subscriber; it receives the current value first.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subject.receive(subscriber: subscriber)
  }
}
