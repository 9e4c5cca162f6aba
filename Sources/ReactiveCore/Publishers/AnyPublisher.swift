/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use ``Publisher/eraseToAnyPublisher()`` to expose an instance of `AnyPublisher` to
/// the downstream subscriber, rather than the publisher's actual type.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let box: AnyPublisherBase<Output, Failure>

  /// Creates a type-erasing publisher to wrap the provided publisher.
  ///
  /// - Parameter publisher: A publisher to wrap with a type-eraser.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
    } else {
      box = AnyPublisherBox(publisher)
    }
  }

  /// Attaches the subscriber to the wrapped publisher.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    box.receive(subscriber: subscriber)
  }

  /// `"AnyPublisher"`, as in Combine.
  public var description: String { "AnyPublisher" }

  /// The same as ``description``.
  public var playgroundDescription: Any { description }
}

/// The erased storage of an ``AnyPublisher``.
@usableFromInline
class AnyPublisherBase<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline
  init() {}

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    fatalError("abstract")
  }
}

@usableFromInline
final class AnyPublisherBox<Base: Publisher>: AnyPublisherBase<Base.Output, Base.Failure>,
  @unchecked Sendable
{
  @usableFromInline
  let base: Base

  @usableFromInline
  init(_ base: Base) { self.base = base }

  @inlinable
  override func receive<S: Subscriber>(subscriber: S)
  where Base.Output == S.Input, Base.Failure == S.Failure {
    base.receive(subscriber: subscriber)
  }
}

extension AnyPublisher: Sendable {}

extension Publisher {
  /// Wraps this publisher with a type eraser.
  ///
  ///     let publisher: AnyPublisher<Int, Never> = [1, 2].publisher.eraseToAnyPublisher()
  ///
  /// - Returns: An ``AnyPublisher`` wrapping this publisher.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}
