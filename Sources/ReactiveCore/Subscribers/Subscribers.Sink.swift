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
    /// The lock that guards `isSubscribed`, `isTerminal`, `upstream`, the completion
    /// handler and changes to the value handler.
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    @exclusivity(unchecked)
    var isSubscribed = false
    @usableFromInline
    @exclusivity(unchecked)
    var isTerminal = false
    /// Whether values reach the closure, and how many deliveries are calling it now.
    /// Bit 0 is set from the start, as in Combine (a value sent before the subscription
    /// is delivered), until the completion or a cancel; the other bits count the
    /// deliveries in progress, two per delivery. Each value announces itself here instead
    /// of taking the lock, so that a cancel on another thread can tell whether the value
    /// closure is free to release or the last delivery must release it.
    @usableFromInline
    let gate = Atomic<UInt>(Sink.open)
    /// Bit 0 of `gate`.
    @usableFromInline
    static var open: UInt { 1 }
    /// One delivery in progress, in `gate`.
    @usableFromInline
    static var delivery: UInt { 2 }
    // Class-bound (16 bytes, not 41): a sink is most of what a live subscription costs.
    // The rare value-type subscription is boxed.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription & AnyObject)?
    // Read without the lock by `receive(_:)`, only while `gate` is open and counts that
    // delivery. It is released under the lock once `gate` is closed and counts none:
    // by `cancel()` if no delivery is in progress, else by the last one to return.
    @usableFromInline
    @exclusivity(unchecked)
    var valueHandler: ((Input) -> Void)?
    @usableFromInline
    @exclusivity(unchecked)
    var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?

    /// The closure to execute on receipt of a value (a no-op once the sink has ended).
    public var receiveValue: (Input) -> Void {
      lock.lock()
      defer { lock.unlock() }
      return valueHandler ?? { _ in }
    }

    /// The closure to execute on completion (a no-op once the sink has ended).
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      lock.lock()
      defer { lock.unlock() }
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
      valueHandler = receiveValue
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
      lock.lock()
      guard !isSubscribed, !isTerminal else {
        lock.unlock()
        subscription.cancel()
        return
      }
      isSubscribed = true
      upstream = subscription
      lock.unlock()
      subscription.request(.unlimited)
    }

    /// Runs `receiveValue` unless the sink has ended.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      let entered = gate.wrappingAdd(Sink.delivery, ordering: .acquiring).oldValue
      if entered & Sink.open != 0 { valueHandler?(value) }
      let left = gate.wrappingSubtract(Sink.delivery, ordering: .acquiringAndReleasing).newValue
      // Closed, and this was the last delivery: a cancel meanwhile left the closure to it.
      if left == 0 { releaseValueHandler() }
      return .none
    }

    /// Lets go of the value closure, once no delivery can call it any more.
    @usableFromInline
    func releaseValueHandler() {
      lock.lock()
      let released = valueHandler
      valueHandler = nil
      lock.unlock()
      _ = released
    }

    /// Runs `receiveCompletion` once, then releases both closures.
    public func receive(completion: Subscribers.Completion<Failure>) {
      lock.lock()
      // As in Combine, a completion ends the sink even before its subscription.
      guard !isTerminal else {
        lock.unlock()
        return
      }
      let handlers = (valueHandler, completionHandler)
      gate.bitwiseAnd(~Sink.open, ordering: .acquiringAndReleasing)
      isSubscribed = false
      isTerminal = true
      upstream = nil
      valueHandler = nil
      completionHandler = nil
      lock.unlock()
      handlers.1?(completion)
    }

    /// Cancels the subscription: no value reaches `receiveValue` after this returns, and
    /// the completion closure is released.
    public func cancel() {
      lock.lock()
      // As in Combine, a cancel before the subscription does nothing: the sink keeps its
      // closures and still accepts a subscription.
      guard isSubscribed else {
        lock.unlock()
        return
      }
      let taken = (upstream, completionHandler)
      let deliveries = gate.bitwiseAnd(~Sink.open, ordering: .acquiringAndReleasing).oldValue
      // No delivery is calling the value closure: release it now. Otherwise the last
      // delivery to return does.
      // Not `Optional.take()`: taking a closure through that generic reabstracts it, which
      // allocates.
      let valueClosure = deliveries & ~Sink.open == 0 ? valueHandler : nil
      if deliveries & ~Sink.open == 0 { valueHandler = nil }
      isSubscribed = false
      isTerminal = true
      upstream = nil
      completionHandler = nil
      lock.unlock()
      _ = valueClosure
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
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}

/// A subscriber that can take a class subscription directly. Checked in specialised code,
/// where the check folds away.
@usableFromInline
protocol ClassSubscriptionAdopting {
  func adopt(_ subscription: any Subscription & AnyObject)
}

extension Subscribers.Sink: ClassSubscriptionAdopting {}
