extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request
  /// operations.
  ///
  /// In contrast with ``Publisher/receive(on:options:)``, which affects downstream
  /// messages, `subscribe(on:options:)` changes the execution context of upstream
  /// messages: subscribing to the upstream, each request and the cancellation run
  /// through `scheduler.schedule(options:_:)`. Values and the completion pass straight
  /// through, on whatever thread the upstream uses.
  ///
  /// Calls to the upstream never overlap; one that the upstream makes happen from inside
  /// another (a request made from within the upstream's `request(_:)`, with a scheduler
  /// that runs work at once) traps, as it does in Combine.
  ///
  ///     let scheduler = TestScheduler()
  ///     let cancellable = Just(1).subscribe(on: scheduler).sink { print($0) }
  ///     scheduler.advance()
  ///     // Prints "1"
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler used to send messages to upstream publishers.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher which performs upstream operations on the specified
  ///   scheduler.
  public func subscribe<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.SubscribeOn<Self, S> {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that receives elements from an upstream publisher on a specific
  /// scheduler.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The scheduler the publisher should use to receive elements.
    public let scheduler: Context
    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that subscribes to `upstream` on `scheduler`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - scheduler: The scheduler the publisher should use to receive elements.
    ///   - options: Scheduler options that customize the delivery of elements.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber: the upstream subscription happens on the scheduler.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let inner = SubscribeOnSubscription<Upstream, Context, S>(
        downstream: subscriber, scheduler: scheduler, options: options)
      let upstream = upstream
      scheduler.schedule(options: options) { upstream.receive(subscriber: inner) }
    }
  }
}

/// Passes values and the completion straight down; sends requests and cancellation
/// upstream through the scheduler, one at a time.
///
/// Built on ``TimingSubscription`` for its status and subscriber, which it never lets go
/// of; events pass straight through, so calls into the subscriber do not take
/// ``TimingSubscription/deliveryLock``. The scheduled work holds the subscription
/// strongly, as Combine's does, and the subscription keeps its subscriber for as long as
/// it lives (see ``TimingSubscription``).
final class SubscribeOnSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: TimingSubscription<Downstream, NoTimingMachine>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// Held while calling the upstream subscription from the scheduler; a thread that
  /// already holds it traps instead of entering again.
  private let upstreamLock = RecursiveLock()
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.scheduler = scheduler
    self.options = options
    super.init(downstream: downstream, machine: NoTimingMachine())
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    currentDownstream?.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    subscribedDownstream?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard endSubscribed() != nil else { return }
    currentDownstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    guard let upstream = rulesIfSubscribed({ _, upstream in upstream }) else { return }
    scheduler.schedule(options: options) { self.callUpstream { upstream.request(demand) } }
  }

  /// Cancels on the scheduler; from here on nothing passes either way, and a request
  /// already scheduled still reaches the upstream first.
  func cancel() {
    guard let upstream = endSubscribed() else { return }
    scheduler.schedule(options: options) { self.callUpstream { upstream.cancel() } }
  }

  /// Runs `call` to the upstream under ``upstreamLock``.
  private func callUpstream(_ call: () -> Void) {
    let acquired = upstreamLock.enter()
    // Combine's lock here is not recursive, and traps when the thread holding it asks
    // again; a recursive entry would let the upstream see nested calls it never allows.
    guard acquired else {
      preconditionFailure(
        "subscribe(on:) called its upstream from inside a call to it: a request or cancel "
          + "made recursively, on a scheduler that runs work at once")
    }
    defer { upstreamLock.exit(acquired) }
    call()
  }

  var description: String { "SubscribeOn" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
