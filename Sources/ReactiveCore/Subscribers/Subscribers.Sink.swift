import Synchronization

extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// Completing or cancelling releases both closures and whatever they captured, as
  /// Combine's sink does. A value being delivered when another thread cancels finishes
  /// first; its closure is released as soon as it returns.
  ///
  /// - Note: `cancel()` is thread-safe and may be called from inside `receiveValue`.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
  {
    // Not on `Lifecycle` (the one lifecycle every engine uses), by design: the sink's life
    // is the `subscribed` and `live` bits of `gate`, so that a value checks it with one
    // atomic load and no lock, and the sink fits malloc's 80-byte chunk. A
    // `LockedBox<Lifecycle<…>>` would add a box, a 41-byte status and a lock per value:
    // the sink would leave malloc's 80-byte chunk for the 128-byte one (moving from the
    // 96-byte chunk to the 80-byte one took memory_per_sink from 234.5 to 218.5 bytes at
    // 2033c97).
    //
    // The sink is packed into 64 bytes, which malloc serves from its 80-byte chunks: with a
    // `Lock` (5 bytes, padded to 8) and two `Bool` flags beside an 8-byte `gate` it took 80
    // bytes, a 96-byte chunk. So the mutex is bare (4 bytes) and the flags share `gate`'s
    // 4 bytes with the delivery count; whether to annotate the mutex for the thread
    // sanitizer is the process-wide `ThreadSanitizerHooks.isActive`. The value closure
    // lives in a `SinkValueHandler` of its own (a 48-byte chunk): called from a `var`, a
    // closure is retained and released around every call, two atomic updates per value
    // (`pipeline` 248 → 229 instructions per value, `with_latest_from` 319 → 282). A live
    // sink is 128 bytes of malloc's chunks, not 80. (On a subject there is no sink at all:
    // see `SubjectSink.swift`.)

    /// The lock that guards `upstream`, the completion handler, changes to the value
    /// handler and the flag bits of `gate` (all but `open` change only with it held).
    @usableFromInline
    let mutex = RawMutex()
    /// Whether values reach the closure, and how many deliveries are calling it now.
    /// ``SinkGate/open`` is set from the start, as in Combine (a value sent before the
    /// subscription is delivered), until the completion or a cancel; the bits from
    /// ``SinkGate/delivery`` up count the deliveries in progress. Each value announces
    /// itself here instead of taking the lock, so that a cancel on another thread can tell
    /// whether the value closure is free to release or the last delivery must release it.
    /// The other bits are flags, changed only under the lock (see ``SinkGate``). Once the
    /// sink has ended the flags are all clear, so a delivery leaving finds the word zero
    /// exactly when it must release the value closure: one locked subtraction, whose
    /// result the check reads from the processor's flags.
    @usableFromInline
    let gate = Atomic<UInt32>(SinkGate.open | SinkGate.live)

    /// Takes the lock.
    @inlinable @inline(__always)
    func lock() {
      mutex.lock()
      // The process-wide flag, not a bit of `gate`: with it there, a delivery would have
      // to mask it out of the word to see whether it is the last one (two instructions
      // per value, measured).
      if ThreadSanitizerHooks.isActive { ThreadSanitizerHooks.didAcquire(lockAddress) }
    }

    /// Releases the lock.
    @inlinable @inline(__always)
    func unlock() {
      if ThreadSanitizerHooks.isActive { ThreadSanitizerHooks.willRelease(lockAddress) }
      mutex.unlock()
    }

    /// The sink's address, which names its lock to the thread sanitizer (which cannot
    /// see the bare mutex).
    @usableFromInline
    var lockAddress: UnsafeRawPointer {
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// The flag bits of `gate`; call with the lock held (only lock holders change them).
    @inlinable @inline(__always)
    var flags: UInt32 { gate.load(ordering: .relaxed) }

    // Class-bound (16 bytes, not 41): a sink is most of what a live subscription costs.
    // The rare value-type subscription is boxed.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription & AnyObject)?
    // Read without the lock by `receive(_:)`, only while `gate` is open and counts that
    // delivery. It is taken under the lock once `gate` is closed and counts none, and
    // released: by `cancel()` or the completion if no delivery is in progress, else by the
    // last one to return. In an object of its own, held unmanaged, so that a delivery calls
    // the closure without retaining it (see the note at the top).
    @usableFromInline
    @exclusivity(unchecked)
    var valueHandler: Unmanaged<SinkValueHandler<Input>>?
    @usableFromInline
    @exclusivity(unchecked)
    var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?

    /// The closure to execute on receipt of a value (a no-op once the sink has ended).
    public var receiveValue: (Input) -> Void {
      lock()
      defer { unlock() }
      return valueHandler?.takeUnretainedValue().call ?? { _ in }
    }

    /// The closure to execute on completion (a no-op once the sink has ended).
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      lock()
      defer { unlock() }
      return completionHandler ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    ///
    /// - Parameters:
    ///   - receiveCompletion: The closure to execute on completion.
    ///   - receiveValue: The closure to execute on receipt of a value.
    @inlinable
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      valueHandler = .passRetained(SinkValueHandler(receiveValue))
      completionHandler = receiveCompletion
    }

    /// Takes the subscription and requests unlimited values; a second one is cancelled.
    public func receive(subscription: any Subscription) {
      adopt(
        subscription as? SubscriptionObject ?? subscription as? any Subscription & AnyObject
          ?? BoxedSubscription(subscription))
    }

    /// Takes a subscription that is already a class reference; a subject's conduit hands
    /// itself over this way, with no cast.
    @usableFromInline
    func adopt(_ subscription: any Subscription & AnyObject) {
      lock()
      guard flags & (SinkGate.subscribed | SinkGate.live) == SinkGate.live else {
        unlock()
        subscription.cancel()
        return
      }
      gate.bitwiseOr(SinkGate.subscribed, ordering: .relaxed)
      upstream = subscription
      unlock()
      subscription.request(.unlimited)
    }

    /// Runs `receiveValue` unless the sink has ended.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      let entered = gate.wrappingAdd(SinkGate.delivery, ordering: .acquiring).oldValue
      if entered & SinkGate.open != 0 {
        valueHandler?._withUnsafeGuaranteedRef { $0.call(value) }
      }
      let left = gate.wrappingSubtract(SinkGate.delivery, ordering: .acquiringAndReleasing).newValue
      // Closed, and this was the last delivery: a cancel meanwhile left the closure to it.
      if left == 0 { releaseValueHandler() }
      return .none
    }

    /// Lets go of the value closure, once no delivery can call it any more.
    @usableFromInline
    func releaseValueHandler() {
      lock()
      let released = valueHandler
      valueHandler = nil
      unlock()
      released?.release()
    }

    /// Ends the sink: closes `gate` and lets go of the upstream and the completion
    /// closure. Returns the value closure's holder for the caller to release after
    /// unlocking, or `nil` when a delivery is calling it (the last one to return releases
    /// it: this end may come from inside it). Call with the lock held.
    func endHoldingLock() -> Unmanaged<SinkValueHandler<Input>>? {
      let deliveries =
        gate.bitwiseAnd(~SinkGate.ending, ordering: .acquiringAndReleasing).oldValue
        & ~SinkGate.ending
      let valueClosure = deliveries == 0 ? valueHandler : nil
      if deliveries == 0 { valueHandler = nil }
      upstream = nil
      completionHandler = nil
      return valueClosure
    }

    deinit {
      valueHandler?.release()
    }

    /// Runs `receiveCompletion` once, then releases both closures.
    public func receive(completion: Subscribers.Completion<Failure>) {
      lock()
      // As in Combine, a completion ends the sink even before its subscription.
      guard flags & SinkGate.live != 0 else {
        unlock()
        return
      }
      let completionClosure = completionHandler
      let valueClosure = endHoldingLock()
      unlock()
      completionClosure?(completion)
      valueClosure?.release()
    }

    /// Cancels the subscription: no value reaches `receiveValue` after this returns, and
    /// the completion closure is released.
    public func cancel() {
      lock()
      // As in Combine, a cancel before the subscription does nothing: the sink keeps its
      // closures and still accepts a subscription.
      guard flags & SinkGate.subscribed != 0 else {
        unlock()
        return
      }
      let taken = (upstream, completionHandler)
      let valueClosure = endHoldingLock()
      unlock()
      valueClosure?.release()
      taken.0?.cancel()
    }

    /// `"Sink"`, as in Combine.
    public var description: String { "Sink" }

    /// A mirror with no children.
    public var customMirror: Mirror {
      Mirror(self, children: [:], ancestorRepresentation: .suppressed)
    }

    /// The same as ``description``.
    public var playgroundDescription: Any { description }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  ///     let cancellable = [1, 2].publisher.sink(
  ///         receiveCompletion: { print($0) },
  ///         receiveValue: { print($0) })
  ///     // Prints "1", "2", "finished"
  ///
  /// - Parameters:
  ///   - receiveCompletion: The closure to execute on completion.
  ///   - receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the
  ///   received value. Deallocation of the result will tear down the subscription stream.
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    // On a subject, the subject's conduit does the sink's work (see `SubjectSink.swift`).
    if let cancellable = SubjectHub<Output, Failure>.sinkIfSubject(
      self, SubjectClosureSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue))
    {
      return cancellable
    }
    let sink = Subscribers.Sink<Output, Failure>(
      receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(object: sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
  ///
  ///     let cancellable = Just(1).sink { print($0) }
  ///     // Prints "1"
  ///
  /// - Parameter receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance that tears the stream down when cancelled or
  ///   deallocated.
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    if let cancellable = SubjectHub<Output, Failure>.sinkIfSubject(
      self, SubjectValueSink(receiveValue))
    {
      return cancellable
    }
    return sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}

/// A sink's value closure, in an object a delivery reaches unretained (see
/// `Subscribers.Sink.valueHandler`).
@usableFromInline
final class SinkValueHandler<Input> {
  /// The closure.
  @usableFromInline
  let call: (Input) -> Void

  @inlinable
  init(_ call: @escaping (Input) -> Void) { self.call = call }
}

/// A subscriber that can take a class subscription directly. Checked in specialised code,
/// where the check folds away.
@usableFromInline
protocol ClassSubscriptionAdopting {
  func adopt(_ subscription: any Subscription & AnyObject)
}

extension Subscribers.Sink: ClassSubscriptionAdopting {}

/// The bits of a sink's `gate` word. Not statics of the generic `Sink`: unspecialised code
/// (the sink's own methods, the initialiser of `gate`) would look up the sink's generic
/// metadata to read them, measured at 74 instructions per `sink` + `cancel`.
@usableFromInline
enum SinkGate {
  /// Values reach the closure (bit of `gate`).
  @usableFromInline
  static var open: UInt32 { 1 }
  /// The sink holds a subscription (bit of `gate`).
  @usableFromInline
  static var subscribed: UInt32 { 2 }
  /// The sink has neither completed nor been cancelled (bit of `gate`): inverted, so
  /// that ending clears it with `open` and `subscribed` in one atomic and.
  @usableFromInline
  static var live: UInt32 { 4 }
  /// One delivery in progress, in `gate`: the count takes the bits above the flags.
  @usableFromInline
  static var delivery: UInt32 { 8 }
  /// `open`, `subscribed` and `live`: what ending the sink clears.
  @usableFromInline
  static var ending: UInt32 { open | subscribed | live }
}
