extension Publisher {
  /// Performs the specified closures when publisher events occur.
  ///
  ///     let cancellable = [1, 2].publisher
  ///         .handleEvents(receiveOutput: { print("got \($0)") })
  ///         .sink { _ in }
  ///     // Prints "got 1", "got 2"
  ///
  /// - Parameters:
  ///   - receiveSubscription: An optional closure that executes when the publisher
  ///     receives the subscription from the upstream publisher.
  ///   - receiveOutput: An optional closure that executes when the publisher receives a
  ///     value from the upstream publisher.
  ///   - receiveCompletion: An optional closure that executes when the upstream publisher
  ///     finishes normally or terminates with an error.
  ///   - receiveCancel: An optional closure that executes when the downstream receiver
  ///     cancels publishing.
  ///   - receiveRequest: An optional closure that executes when the publisher receives a
  ///     request for more elements.
  /// - Returns: A publisher that performs the specified closures when publisher events
  ///   occur.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil,
    receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
      receiveRequest: receiveRequest)
  }
}

extension Publishers {
  /// A publisher that performs the specified closures when publisher events occur.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// A closure that executes when the publisher receives the subscription from the
    /// upstream publisher.
    public var receiveSubscription: ((any Subscription) -> Void)?
    /// A closure that executes when the publisher receives a value from the upstream
    /// publisher.
    public var receiveOutput: ((Upstream.Output) -> Void)?
    /// A closure that executes when the upstream publisher finishes normally or
    /// terminates with an error.
    public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
    /// A closure that executes when the downstream receiver cancels publishing.
    public var receiveCancel: (() -> Void)?
    /// A closure that executes when the publisher receives a request for more elements.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// Creates a publisher that performs the specified closures when publisher events
    /// occur.
    public init(
      upstream: Upstream, receiveSubscription: ((any Subscription) -> Void)? = nil,
      receiveOutput: ((Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)?
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    /// Attaches the subscriber through a tap that runs the closures.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let handlers = EventHandlers(
        subscription: receiveSubscription, output: receiveOutput, completion: receiveCompletion,
        cancel: receiveCancel, request: receiveRequest)
      upstream.receive(
        subscriber: EventTap(name: "HandleEvents", downstream: subscriber, handlers: handlers))
    }
  }
}
