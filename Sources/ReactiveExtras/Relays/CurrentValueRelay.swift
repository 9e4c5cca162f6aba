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

  /// Feeds this relay with the values of `publisher`, as CombineExt's relays do: the
  /// publisher is asked for values only as this relay's subscribers ask for them, so a
  /// value (a `CurrentValueRelay`'s current one, say) is not lost before anyone listens,
  /// and the publisher's finish does not end the relay.
  ///
  /// - Parameter publisher: An infallible publisher of the relay's values.
  /// - Returns: A cancellable that stops the feeding.
  public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
  where P.Output == Output, P.Failure == Never {
    let feed = RelayFeed(into: subject)
    publisher.subscribe(feed)
    return AnyCancellable(feed)
  }

  /// Feeds `relay` with this relay's values: between two relays the one called on is the
  /// source, as CombineExt has it (`input.subscribe(output)`), the same direction as
  /// `publisher.subscribe(relay)`.
  ///
  /// - Parameter relay: The relay to feed.
  /// - Returns: A cancellable that stops the feeding.
  public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
    relay.subscribe(self)
  }

  /// Attaches the subscriber; it receives the current value first.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subject.receive(subscriber: RelaySubscriber(downstream: subscriber))
  }
}
