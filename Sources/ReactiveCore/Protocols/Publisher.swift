/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// ``Subscriber/Input`` and ``Subscriber/Failure`` associated types must match the
/// publisher's ``Output`` and ``Failure``.
///
///     let cancellable = [1, 2, 3].publisher
///         .map { $0 * 10 }
///         .sink { print($0) }
///     // Prints "10", "20", "30"
public protocol Publisher<Output, Failure> {
  /// The kind of values published by this publisher.
  associatedtype Output
  /// The kind of errors this publisher might publish.
  associatedtype Failure: Error

  /// Attaches the specified subscriber to this publisher.
  ///
  /// Implementations of ``Publisher`` must implement this method. The provided extension
  /// method `subscribe(_:)` calls this method.
  ///
  /// - Parameter subscriber: The subscriber to attach to this ``Publisher``, after which
  ///   it can receive values.
  func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input
}

extension Publisher {
  /// Attaches the specified subscriber to this publisher.
  ///
  /// Always call this function instead of ``Publisher/receive(subscriber:)``.
  ///
  /// - Parameter subscriber: The subscriber to attach to this publisher. After attaching,
  ///   the subscriber can start to receive values.
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where Failure == S.Failure, Output == S.Input {
    receive(subscriber: subscriber)
  }

  /// Attaches the specified subject to this publisher.
  ///
  /// - Parameter subject: The subject to attach to this publisher.
  /// - Returns: A cancellable that stops the subject from receiving further elements.
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
  where Failure == S.Failure, Output == S.Output {
    let subscriber = SubjectSubscriber(subject)
    receive(subscriber: subscriber)
    return AnyCancellable(subscriber)
  }
}
