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

  /// Attaches the subscriber.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subject.receive(subscriber: RelaySubscriber(downstream: subscriber))
  }
}
