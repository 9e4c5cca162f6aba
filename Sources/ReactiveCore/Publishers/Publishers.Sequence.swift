extension Publishers {
  /// A publisher that publishes a given sequence of elements.
  ///
  /// When the publisher exhausts the elements in the sequence, the next request causes
  /// the publisher to finish.
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Elements.Element

    /// The sequence of elements to publish.
    public let sequence: Elements

    /// Creates a publisher for a sequence of elements.
    ///
    /// - Parameter sequence: The sequence of elements to publish.
    public init(sequence: Elements) { self.sequence = sequence }

    /// Attaches the subscriber and emits the elements as it demands them.
    public func receive<S: Subscriber>(subscriber: S)
    where Failure == S.Failure, Elements.Element == S.Input {
      SequenceSubscription(
        sequence, completion: .finished, downstream: subscriber, endedName: "Sequence"
      )
      .start()
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}
extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Sequence {
  /// A publisher that emits the elements of this sequence.
  ///
  ///     let cancellable = [1, 2, 3].publisher.sink { print($0) }
  ///     // Prints "1", "2", "3"
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}
