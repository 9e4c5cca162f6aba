/// Delivers events from several upstreams to one downstream, one at a time and within
/// its demand: the engine of `merge`, `combineLatest` and `flatMap`.
///
/// Upstream sides call ``push(_:)``/``finish(_:)`` from any thread; the events wait in a
/// queue, and whichever thread finds no drain running delivers them — never under the
/// lock, never two at once. A value is delivered only while downstream demand lasts; the
/// rest wait until ``request(_:)`` adds more. Each delivered value that carries a tag
/// runs `onDelivered` with it (to ask its source for another, for example).
// Inlinable throughout so that it is specialised, with the operator that owns it, for the
// caller's subscriber: unspecialised, every value paid for generic metadata lookups.
@usableFromInline
final class SerialDownstream<Downstream: Subscriber>: @unchecked Sendable {
  @usableFromInline
  typealias Output = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  /// The lock that guards every variable below.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?
  @usableFromInline
  @exclusivity(unchecked)
  var values: [(Output, Int?)] = []
  @usableFromInline
  @exclusivity(unchecked)
  var head = 0
  @usableFromInline
  @exclusivity(unchecked)
  var demand = Subscribers.Demand.none
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?
  @usableFromInline
  @exclusivity(unchecked)
  var isDraining = false

  /// Runs after a tagged value was delivered, with its tag. One closure for the engine's
  /// life, rather than one per value, so that values cost no allocation. Set by the owner
  /// right after creating the engine, before any value.
  @usableFromInline
  @exclusivity(unchecked)
  var onDelivered: ((Int) -> Void)?

  @inlinable
  init(_ downstream: Downstream) { self.downstream = downstream }

  /// Whether the downstream is gone (completed or cancelled).
  @inlinable
  var isTerminated: Bool { lock.withLock { downstream == nil || completion != nil } }

  /// The downstream demand not yet used by delivered values.
  @inlinable
  var outstandingDemand: Subscribers.Demand { lock.withLock { demand } }

  /// Queues a value; with a tag, `onDelivered` runs with it after downstream received it.
  @inlinable
  func push(_ value: Output, tag: Int? = nil) {
    lock.lock()
    guard let target = downstream, completion == nil else {
      lock.unlock()
      return
    }
    // The common case: nothing queued, nobody delivering, demand left — deliver at once
    // instead of queueing and taking the lock twice more to dequeue.
    if !isDraining, head == values.count, demand > 0 {
      isDraining = true
      demand -= 1
      lock.unlock()
      let more = target.receive(value)
      if more > 0 { lock.withLock { demand += more } }
      if let tag { onDelivered?(tag) }
      drainHeld()
      return
    }
    values.append((value, tag))
    lock.unlock()
    drain()
  }

  /// Queues the completion: a failure goes out before any queued value, a finish after
  /// them. Later events are ignored.
  @inlinable
  func finish(_ completion: Subscribers.Completion<Failure>) {
    lock.withLock {
      guard downstream != nil, self.completion == nil else { return }
      self.completion = completion
      if case .failure = completion {
        values = []
        head = 0
      }
    }
    drain()
  }

  /// Adds downstream demand and delivers what it allows.
  @inlinable
  func request(_ additional: Subscribers.Demand) {
    lock.withLock { demand += additional }
    drain()
  }

  /// Drops the downstream and everything queued.
  @inlinable
  func cancel() {
    let released = lock.withLock { () -> (Downstream?, [(Output, Int?)]) in
      defer {
        downstream = nil
        values = []
        head = 0
      }
      return (downstream, values)
    }
    _ = released
  }

  @usableFromInline
  enum Next {
    case value(Output, Int?, Downstream)
    case completion(Subscribers.Completion<Failure>, Downstream)
  }

  /// Delivers what is queued unless another thread is already doing so.
  @inlinable
  func drain() {
    let mayDrain = lock.withLock { () -> Bool in
      guard !isDraining else { return false }
      isDraining = true
      return true
    }
    if mayDrain { drainHeld() }
  }

  /// Delivers what is queued and allowed; the caller set `isDraining`.
  @inlinable
  func drainHeld() {
    while true {
      let next = lock.withLock { () -> Next? in
        guard let downstream else {
          isDraining = false
          return nil
        }
        if head < values.count, demand > 0 {
          let (value, tag) = values[head]
          head += 1
          if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
          }
          demand -= 1
          return .value(value, tag, downstream)
        }
        if head == values.count, let completion {
          self.downstream = nil
          isDraining = false
          return .completion(completion, downstream)
        }
        isDraining = false
        return nil
      }
      switch next {
      case .value(let value, let tag, let target)?:
        let more = target.receive(value)
        if more > 0 { lock.withLock { demand += more } }
        if let tag { onDelivered?(tag) }
      case .completion(let completion, let target)?:
        target.receive(completion: completion)
        return
      case nil:
        return
      }
    }
  }
}
