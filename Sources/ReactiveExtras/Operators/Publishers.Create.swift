import ReactiveCore

extension AnyPublisher {
  /// Creates a publisher from a closure that sends values and a completion to each
  /// subscriber, and returns what to clean up when the subscriber cancels or the stream
  /// completes.
  ///
  ///     let greetings = AnyPublisher<String, Never>.create { subscriber in
  ///         subscriber.send("Hello")
  ///         subscriber.send(completion: .finished)
  ///         return AnyCancellable {}
  ///     }
  ///
  /// Values the subscriber has not asked for yet wait for its demand.
  ///
  /// - Parameter factory: Runs once per subscriber with a handle to send events to it.
  /// - Returns: A publisher of what `factory` sends.
  public static func create(
    _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
  ) -> AnyPublisher<Output, Failure> {
    AnyPublisher(factory)
  }

  /// Creates a publisher from a closure that sends values and a completion to each
  /// subscriber; the same as ``create(_:)``.
  ///
  /// - Parameter factory: Runs once per subscriber with a handle to send events to it.
  public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
    self = Publishers.Create(factory: factory).eraseToAnyPublisher()
  }
}

extension Publishers {
  /// A publisher that runs a closure for each subscriber, which sends it events through a
  /// ``Subscriber`` handle.
  public struct Create<Output, Failure: Error>: Publisher {
    /// The closure that sends events to one subscriber and returns its cleanup.
    public typealias SubscriberHandler = (Subscriber) -> any Cancellable

    private let factory: SubscriberHandler

    /// Creates the publisher.
    ///
    /// - Parameter factory: Runs once per subscriber with a handle to send events to it.
    public init(factory: @escaping SubscriberHandler) { self.factory = factory }

    /// Attaches the subscriber and runs the factory for it.
    public func receive<S: ReactiveCore.Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CreateSubscription(downstream: subscriber)
      subscriber.receive(subscription: subscription)
      subscription.start(factory)
    }

    /// The handle a ``Create`` factory sends events through. Events after the completion
    /// or the subscriber's cancel are ignored.
    ///
    /// - Note: Thread-safe: events may be sent from any thread; they reach the subscriber
    ///   one at a time, in the order they were sent.
    public struct Subscriber: @unchecked Sendable {
      fileprivate let onValue: (Output) -> Void
      fileprivate let onCompletion: (Subscribers.Completion<Failure>) -> Void

      /// Sends a value; it waits for the subscriber's demand if need be.
      ///
      /// - Parameter input: The value to send.
      public func send(_ input: Output) { onValue(input) }

      /// Ends the stream after the values already sent.
      ///
      /// - Parameter completion: The completion.
      public func send(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
    }
  }
}

/// Buffers a created stream's events for its subscriber and runs the cleanup once, on
/// cancel or completion.
private final class CreateSubscription<Downstream: Subscriber>: Subscription,
  CustomStringConvertible, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private let buffer: DemandBuffer<Downstream, Void>
  /// What ending the stream needs; guarded by its box's lock.
  private struct State {
    /// The factory's cleanup, until it runs.
    var cleanup: (any Cancellable)?
    /// Whether the stream has ended (the cleanup then runs at once when it arrives).
    var isDone = false
  }

  /// The subscription's state behind its lock.
  private let state = LockedBox(State())

  init(downstream: Downstream) { buffer = DemandBuffer(downstream) }

  func start(_ factory: Publishers.Create<Output, Failure>.SubscriberHandler) {
    // Weak: the handle may outlive the subscription (a factory may keep it).
    let handle = Publishers.Create<Output, Failure>.Subscriber(
      onValue: { [weak self] in self?.buffer.push($0) },
      onCompletion: { [weak self] in self?.finish($0) })
    let cleanup = factory(handle)
    let runNow = state.withLock { state -> Bool in
      if state.isDone { return true }
      state.cleanup = cleanup
      return false
    }
    if runNow { cleanup.cancel() }
  }

  private func finish(_ completion: Subscribers.Completion<Failure>) {
    buffer.complete(completion)
    endOnce()
  }

  /// Runs the cleanup the first time the stream ends.
  private func endOnce() {
    let cleanup = state.withLock { state -> (any Cancellable)? in
      state.isDone = true
      defer { state.cleanup = nil }
      return state.cleanup
    }
    cleanup?.cancel()
  }

  /// Adds demand. A request of `.none` is ignored, as CombineExt's `create` ignores it
  /// (Combine itself traps there, but subscribers written for CombineExt ask for it).
  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    buffer.addDemand(demand)
  }

  func cancel() {
    buffer.release()
    endOnce()
  }

  /// CombineExt's description of the subscription, which its users' tests compare.
  var description: String { "Create.Subscription<\(Output.self), \(Failure.self)>" }
}
