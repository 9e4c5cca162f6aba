import Foundation

/// A type that defines methods for encoding.
public protocol TopLevelEncoder {
  /// The type this encoder produces.
  associatedtype Output

  /// Encodes an instance of the indicated type.
  ///
  /// - Parameter value: The instance to encode.
  /// - Returns: The encoded value.
  func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding.
public protocol TopLevelDecoder {
  /// The type this decoder accepts.
  associatedtype Input

  /// Decodes an instance of the indicated type.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - from: The data to decode from.
  /// - Returns: The decoded instance.
  func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONEncoder: TopLevelEncoder {}
extension JSONDecoder: TopLevelDecoder {}
extension PropertyListEncoder: TopLevelEncoder {}
extension PropertyListDecoder: TopLevelDecoder {}

extension Publisher where Output: Encodable {
  /// Encodes the output from upstream using a specified encoder.
  ///
  ///     let cancellable = Just(Point(x: 1)).encode(encoder: JSONEncoder()).sink(...)
  ///
  /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
  /// - Returns: A publisher that encodes received elements using a specified encoder, and
  ///   publishes the resulting data.
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}

extension Publisher {
  /// Decodes the output from the upstream using a specified decoder.
  ///
  /// - Parameters:
  ///   - type: The encoded data to decode into a struct that conforms to `Decodable`.
  ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
  /// - Returns: A publisher that decodes a given type using a specified decoder and
  ///   publishes the result.
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type, decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}

extension Publishers {
  /// A publisher that encodes elements received from an upstream publisher, using an
  /// encoder.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
  where Upstream.Output: Encodable {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The kind of values published by this publisher.
    public typealias Output = Coder.Output
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    private let encoder: Coder

    /// Creates a publisher that encodes elements received from an upstream publisher,
    /// using the given encoder.
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    /// Attaches the subscriber; an encoding error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Coder.Output == S.Input, S.Failure == any Error {
      let encoder = encoder
      upstream.receive(
        subscriber: CodingSubscription<Upstream.Output, Upstream.Failure, S>(
          "Encode", downstream: subscriber, transform: { try encoder.encode($0) }))
    }
  }

  /// A publisher that decodes elements received from an upstream publisher, using a
  /// decoder.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    private let decoder: Coder

    /// Creates a publisher that decodes elements received from an upstream publisher,
    /// using the given decoder.
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    /// Attaches the subscriber; a decoding error cancels upstream and fails downstream.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let decoder = decoder
      upstream.receive(
        subscriber: CodingSubscription<Upstream.Output, Upstream.Failure, S>(
          "Decode", downstream: subscriber,
          transform: { try decoder.decode(Output.self, from: $0) }))
    }
  }
}

/// The subscription of `encode(encoder:)` and `decode(type:decoder:)`, in Combine's shape.
///
/// Combine's coding operators are looser than most: they only track whether they have
/// finished, so a value or completion that arrives before the subscription still reaches
/// downstream, and a request before it goes nowhere. A coding error cancels upstream and
/// fails downstream. The downstream is kept for this object's whole life, and the
/// upstream subscription is let go as soon as the stream ends.
///
/// - Note: Thread-safe. The lock guards the ``Lifecycle``; the coder and the downstream run
///   without it.
private final class CodingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  Guarded<Lifecycle<Void>>, Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == any Error {
  /// The upstream's failure type.
  typealias Failure = UpstreamFailure

  /// The operator's name, as Combine spells it.
  let description: String
  /// The subscriber, held for this object's whole life as in Combine.
  private let downstream: Downstream
  /// Encodes or decodes one value.
  private let transform: (Input) throws -> Downstream.Input

  /// Creates the subscription of the operator `name` for `downstream`.
  init(
    _ name: String, downstream: Downstream,
    transform: @escaping (Input) throws -> Downstream.Input
  ) {
    description = name
    self.downstream = downstream
    self.transform = transform
    super.init(state: Lifecycle())
  }

  /// Takes the first subscription and hands itself downstream; any later subscription,
  /// or one after the end, is cancelled.
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
  }

  /// Codes the value and passes it on; a coding error ends the stream with that error.
  func receive(_ input: Input) -> Subscribers.Demand {
    // As in Combine, only the end stops values: one before the subscription passes.
    guard !withLock({ $0.hasEnded }) else { return .none }
    let output: Downstream.Input
    do {
      output = try transform(input)
    } catch {
      let taken = withLock { $0.end() }
      taken?.cancel()
      downstream.receive(completion: .failure(error))
      return .none
    }
    return downstream.receive(output)
  }

  /// Passes the first completion on, even one that arrives before the subscription.
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard !stateAssumingLocked.hasEnded else {
      lock.unlock()
      return
    }
    _ = stateAssumingLocked.end()
    lock.unlock()
    downstream.receive(completion: completion.mapError { $0 })
  }

  /// Forwards the demand upstream; before the subscription it goes nowhere.
  func request(_ demand: Subscribers.Demand) {
    currentUpstream()?.request(demand)
  }

  /// Cancels upstream once; a cancel before the subscription, or after the end, does
  /// nothing.
  func cancel() {
    terminate()?.cancel()
  }

  /// Shows the downstream, whether the stream ended and the upstream subscription, as
  /// Combine does.
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("finished", stateAssumingLocked.hasEnded),
      ("upstreamSubscription", stateAssumingLocked.subscription as Any),
    ]
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }

  /// The operator's name.
  var playgroundDescription: Any { description }
}
