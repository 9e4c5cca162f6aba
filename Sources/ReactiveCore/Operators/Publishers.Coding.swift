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
        subscriber:
          StepOperator<Upstream.Output, Upstream.Failure, S>(
            throwing: "Encode", downstream: subscriber
          ) {
            value in .trying { .emit(try encoder.encode(value)) }
          })
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
        subscriber:
          StepOperator<Upstream.Output, Upstream.Failure, S>(
            throwing: "Decode", downstream: subscriber
          ) {
            input in .trying { .emit(try decoder.decode(Output.self, from: input)) }
          })
    }
  }
}
