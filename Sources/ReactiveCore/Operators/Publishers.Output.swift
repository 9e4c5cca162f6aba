extension Publisher {
  /// Republishes elements up to the specified maximum count.
  ///
  ///     let cancellable = (1...9).publisher.prefix(2).sink { print($0) }
  ///     // Prints "1", "2"
  ///
  /// - Parameter maxLength: The maximum number of elements to republish.
  /// - Returns: A publisher that publishes up to the specified number of elements before
  ///   completing.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    precondition(maxLength >= 0, "prefix(_:) needs a length of zero or more")
    return output(in: 0..<maxLength)
  }

  /// Publishes a specific element, indicated by its index in the sequence of published
  /// elements.
  ///
  /// - Parameter index: The index that indicates the element to publish.
  /// - Returns: A publisher that publishes a specific indexed element.
  public func output(at index: Int) -> Publishers.Output<Self> {
    output(in: index...index)
  }

  /// Publishes elements specified by their range in the sequence of published elements.
  ///
  ///     let cancellable = (0...9).publisher.output(in: 3...5).sink { print($0) }
  ///     // Prints "3", "4", "5"
  ///
  /// - Parameter range: A range that indicates which elements to publish.
  /// - Returns: A publisher that publishes elements specified by a range.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
  where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }
}

extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of
  /// published elements.
  public struct Output<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// The range of elements to publish.
    public let range: CountableRange<Int>

    /// Creates a publisher that publishes elements specified by a range.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - range: The range of elements to publish.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      precondition(range.lowerBound >= 0, "the range must start at zero or later")
      self.upstream = upstream
      self.range = range
    }

    /// Attaches the subscriber; after the range's last element upstream is cancelled.
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Failure == S.Failure {
      var index = 0
      let range = range
      upstream.receive(
        subscriber:
          StepOperator<Upstream.Output, Failure, S>("Output", downstream: subscriber) { input in
            defer { index += 1 }
            if range.isEmpty || index >= range.upperBound { return .finish }
            if index < range.lowerBound { return .drop }
            return index == range.upperBound - 1 ? .emitAndFinish(input) : .emit(input)
          })
    }
  }
}
