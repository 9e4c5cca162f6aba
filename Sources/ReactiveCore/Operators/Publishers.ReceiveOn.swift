import Dispatch

extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// `receive(on:)` changes the execution context of downstream messages: every value
  /// and the completion reach the subscriber through `scheduler.schedule(options:_:)`.
  /// The subscription itself is handed over at once, and requests and cancellation go
  /// upstream directly, on the caller's thread, as in Combine. Once the upstream has
  /// completed, the completion is delivered even if the subscriber cancels meanwhile.
  ///
  ///     let scheduler = TestScheduler()
  ///     let cancellable = Just(1).receive(on: scheduler).sink { print($0) }
  ///     scheduler.advance()
  ///     // Prints "1"
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler the publisher uses for element delivery.
  ///   - options: Scheduler options used to customize element delivery.
  /// - Returns: A publisher that delivers elements using the specified scheduler.
  public func receive<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers elements to its downstream subscriber on a specific
  /// scheduler.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The scheduler the publisher is to use for element delivery.
    public let scheduler: Context
    /// Scheduler options used to customize element delivery.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delivers `upstream`'s elements on `scheduler`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - scheduler: The scheduler the publisher is to use for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber; values and the completion go through the scheduler.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReceiveOnSubscription<Upstream, Context, S>(
            downstream: subscriber, scheduler: scheduler, options: options))
    }
  }
}

/// Re-delivers each value and the completion through `scheduler.schedule(options:_:)`.
///
/// One scheduled action per event, as in Combine, so that values interleave with other
/// work on the scheduler exactly as Combine's do. The scheduled work holds the
/// subscription strongly, as Combine's does: a value scheduled before `cancel()` is then
/// dropped, and a completion scheduled before it is still delivered. It keeps its
/// subscriber for as long as it lives, as Combine's does.
///
/// Its own class rather than ``TimingSubscription``'s: inlinable, so that it is
/// specialised for the caller's upstream, scheduler and subscriber (unspecialised, a
/// value spent a third of its time copying the generic state to read one flag), and a
/// value takes the lock once on each side of the hop. `receive_on` measures it against
/// OpenCombine (Benchmarks README, contention).
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``Lifecycle``; ``deliveryLock``
///   keeps deliveries apart (a concurrent queue may run two at once) and lets the
///   subscriber send again from inside one on an immediate scheduler. Neither is held
///   while calling upstream or the scheduler; ``Guarded/lock`` is never held while
///   calling the subscriber.
@usableFromInline
final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Guarded<Lifecycle<DispatchHop<Upstream.Output>>>, Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  @usableFromInline
  typealias Input = Upstream.Output
  @usableFromInline
  typealias Failure = Upstream.Failure

  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  /// Held while calling into the subscriber, so that deliveries never overlap.
  @usableFromInline
  let deliveryLock = RecursiveLock()

  /// The queue, when the scheduler is a `DispatchQueue` used without options: values
  /// then hop through ``DispatchHop`` (decided once, here).
  @usableFromInline
  let queue: DispatchQueue?

  @inlinable
  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
    queue = options == nil ? scheduler as? DispatchQueue : nil
    super.init(state: Lifecycle(DispatchHop()))
  }

  @inlinable
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    deliveryLock.withLock { downstream.receive(subscription: self) }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    if let queue { return hop(input, to: queue) }
    lock.lock()
    let subscribed = stateAssumingLocked.isSubscribed
    lock.unlock()
    guard subscribed else { return .none }
    scheduler.schedule(options: options) { self.deliverScheduled(input) }
    // The subscriber's answer goes upstream once the value is delivered.
    return .none
  }

  /// Schedules `input` on `queue` with no allocation of its own: the value waits in the
  /// hop's queue and the block made once takes the oldest. One block per value, so that
  /// values interleave with other work on the queue as Combine's do.
  ///
  /// Scheduled work holds the subscription, as a closure's capture does in Combine: the
  /// first block scheduled while none is pending retains it, and the block that leaves
  /// none pending gives it back (one retain per burst, not per value).
  @inlinable
  func hop(_ input: Input, to queue: DispatchQueue) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed else {
      lock.unlock()
      return .none
    }
    stateAssumingLocked.machine.values.append(input)
    stateAssumingLocked.machine.scheduled += 1
    let first = stateAssumingLocked.machine.scheduled == 1
    let block = stateAssumingLocked.machine.block ?? makeHopBlockLocked()
    lock.unlock()
    if first { _ = Unmanaged.passUnretained(self).retain() }
    queue.async(execute: block)
    return .none
  }

  /// Makes the hop's block, once; call with the lock held. The block reaches the
  /// subscription unretained: ``hop(_:to:)`` keeps it alive while blocks are pending.
  @inlinable
  func makeHopBlockLocked() -> DispatchHop<Input>.Block {
    let unretained = Unmanaged.passUnretained(self)
    let body: () -> Void = { unretained._withUnsafeGuaranteedRef { $0.deliverOldestHopped() } }
    // Sendable: the subscription is; the closure only names its generic types.
    let block: DispatchHop<Input>.Block = unsafeBitCast(body, to: (@Sendable () -> Void).self)
    stateAssumingLocked.machine.block = block
    return block
  }

  /// Delivers the oldest value waiting in the hop, as ``deliverScheduled(_:)-(Input)``
  /// does. The delivery lock is taken first, so that blocks run at once on a concurrent
  /// queue still deliver in order.
  @inlinable
  func deliverOldestHopped() {
    let entered = deliveryLock.enter()
    lock.lock()
    let holds = stateAssumingLocked.holdsSubscription
    let value = stateAssumingLocked.machine.values.takeFirst()
    stateAssumingLocked.machine.scheduled -= 1
    let last = stateAssumingLocked.machine.scheduled == 0
    lock.unlock()
    var demand = Subscribers.Demand.none
    if holds, let value { demand = downstream.receive(value) }
    deliveryLock.exit(entered)
    if demand != .none, let upstream = currentUpstream() { upstream.request(demand) }
    // The pending work's hold, given back last: this may free the subscription.
    if last { Unmanaged.passUnretained(self).release() }
  }

  /// Delivers a value scheduled earlier, unless the subscription was cancelled meanwhile,
  /// and asks the upstream for the subscriber's further demand, even if the upstream
  /// completed meanwhile (Combine does).
  @inlinable
  func deliverScheduled(_ value: Input) {
    lock.lock()
    let holds = stateAssumingLocked.holdsSubscription
    lock.unlock()
    guard holds else { return }
    let demand = deliveryLock.withLock { downstream.receive(value) }
    guard demand != .none, let upstream = currentUpstream() else { return }
    upstream.request(demand)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    // From here on the subscriber's requests and cancellation are ignored, and the
    // completion is delivered whatever happens meanwhile.
    guard holdCompletion({ _ in }) != nil else { return }
    scheduler.schedule(options: options) { self.deliverScheduled(completion) }
  }

  /// Delivers the completion scheduled earlier.
  @inlinable
  func deliverScheduled(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let due = stateAssumingLocked.endPending()
    lock.unlock()
    guard due else { return }
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) { requestUpstream(demand) }

  @inlinable
  func cancel() {
    // Values still waiting to hop are dropped, as Combine drops a value scheduled before a
    // cancel; released here, outside the lock.
    var dropped = FIFOQueue<Input?>()
    let upstream = terminate { swap(&dropped, &$0.values) }
    withExtendedLifetime(dropped) {}
    upstream?.cancel()
  }

  @usableFromInline
  var description: String { "ReceiveOn" }
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  @usableFromInline
  var playgroundDescription: Any { description }
}

/// What a `receive(on:)` hopping to a `DispatchQueue` keeps under its lock: the values
/// scheduled and not yet delivered, oldest first, and the one block that delivers the
/// oldest (made once, on the first value: a block made per value was two allocations a
/// value, and allocating on the sending thread and freeing on the queue's defeats
/// malloc's per-thread caches).
@usableFromInline
struct DispatchHop<Input> {
  @usableFromInline
  typealias Block = @Sendable @convention(block) () -> Void

  /// Scheduled values; each block run takes the oldest, leaving `nil` in its slot so that
  /// the queue never releases a value under the lock.
  @usableFromInline
  var values = FIFOQueue<Input?>()
  /// The block that delivers the oldest value.
  @usableFromInline
  var block: Block?
  /// Blocks scheduled and not yet run.
  @usableFromInline
  var scheduled = 0

  @inlinable
  init() {}
}
