#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Publisher {
  /// Raises a debugger signal when a provided closure needs to stop the process in the
  /// debugger.
  ///
  /// - Parameters:
  ///   - receiveSubscription: A closure that executes when the publisher receives a
  ///     subscription. Return `true` from this closure to raise `SIGTRAP`.
  ///   - receiveOutput: A closure that executes when the publisher receives a value.
  ///     Return `true` from this closure to raise `SIGTRAP`.
  ///   - receiveCompletion: A closure that executes when the publisher receives a
  ///     completion. Return `true` from this closure to raise `SIGTRAP`.
  /// - Returns: A publisher that raises a debugger signal when one of the provided
  ///   closures returns `true`.
  public func breakpoint(
    receiveSubscription: ((any Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion)
  }

  /// Raises a debugger signal upon receiving a failure.
  ///
  /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
  public func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { if case .failure = $0 { true } else { false } })
  }
}

extension Publishers {
  /// A publisher that raises a debugger signal when a provided closure needs to stop the
  /// process in the debugger.
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// A closure that executes when the publisher receives a subscription, and can raise
    /// a debugger signal by returning `true`.
    public let receiveSubscription: ((any Subscription) -> Bool)?
    /// A closure that executes when the publisher receives output from the upstream
    /// publisher, and can raise a debugger signal by returning `true`.
    public let receiveOutput: ((Upstream.Output) -> Bool)?
    /// A closure that executes when the publisher receives completion, and can raise a
    /// debugger signal by returning `true`.
    public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

    /// Creates a breakpoint publisher with the provided upstream publisher and
    /// breakpoint-raising closures.
    public init(
      upstream: Upstream, receiveSubscription: ((any Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    /// Attaches the subscriber through a tap that raises `SIGTRAP` when told to.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let (onSubscription, onOutput, onCompletion) = (
        receiveSubscription, receiveOutput, receiveCompletion
      )
      let handlers = EventHandlers<Output, Failure>(
        subscription: { if onSubscription?($0) == true { raise(SIGTRAP) } },
        output: { if onOutput?($0) == true { raise(SIGTRAP) } },
        completion: { if onCompletion?($0) == true { raise(SIGTRAP) } },
        cancel: nil, request: nil)
      upstream.receive(
        subscriber: EventTap(name: "Breakpoint", downstream: subscriber, handlers: handlers))
    }
  }
}
