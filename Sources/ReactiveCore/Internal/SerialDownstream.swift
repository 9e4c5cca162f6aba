/// Delivers events from several upstreams to one downstream, one at a time and within
/// its demand: the engine of `merge`, `zip`, `flatMap` and `switchToLatest`.
///
/// Upstream sides call ``push(_:)``/``finish(_:)`` from any thread; the events wait in a
/// queue, and whichever thread finds no drain running delivers them — never under the
/// lock, never two at once. A value is delivered only while downstream demand lasts; the
/// rest wait until ``request(_:)`` adds more. Each delivered value runs `onDelivered`
/// (to ask its source for another, for example).
final class SerialDownstream<Downstream: Subscriber>: @unchecked Sendable {
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var downstream: Downstream?
  private var values: [(Output, (() -> Void)?)] = []
  @exclusivity(unchecked)
  private var head = 0
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var completion: Subscribers.Completion<Failure>?
  private var isDraining = false

  init(_ downstream: Downstream) { self.downstream = downstream }

  /// Whether the downstream is gone (completed or cancelled).
  var isTerminated: Bool { lock.withLock { downstream == nil || completion != nil } }

  /// The downstream demand not yet used by delivered values.
  var outstandingDemand: Subscribers.Demand { lock.withLock { demand } }

  /// Queues a value; `onDelivered` runs after downstream received it.
  func push(_ value: Output, onDelivered: (() -> Void)? = nil) {
    lock.withLock {
      guard downstream != nil, completion == nil else { return }
      values.append((value, onDelivered))
    }
    drain()
  }

  /// Queues the completion: a failure goes out before any queued value, a finish after
  /// them. Later events are ignored.
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
  func request(_ additional: Subscribers.Demand) {
    lock.withLock { demand += additional }
    drain()
  }

  /// Drops the downstream and everything queued.
  func cancel() {
    let released = lock.withLock { () -> (Downstream?, [(Output, (() -> Void)?)]) in
      defer {
        downstream = nil
        values = []
        head = 0
      }
      return (downstream, values)
    }
    _ = released
  }

  private enum Next {
    case value(Output, (() -> Void)?, Downstream)
    case completion(Subscribers.Completion<Failure>, Downstream)
  }

  private func drain() {
    let mayDrain = lock.withLock { () -> Bool in
      guard !isDraining else { return false }
      isDraining = true
      return true
    }
    guard mayDrain else { return }
    while true {
      let next = lock.withLock { () -> Next? in
        guard let downstream else {
          isDraining = false
          return nil
        }
        if head < values.count, demand > 0 {
          let (value, onDelivered) = values[head]
          head += 1
          if head == values.count {
            values.removeAll(keepingCapacity: true)
            head = 0
          }
          demand -= 1
          return .value(value, onDelivered, downstream)
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
      case .value(let value, let onDelivered, let target)?:
        let more = target.receive(value)
        if more > 0 { lock.withLock { demand += more } }
        onDelivered?()
      case .completion(let completion, let target)?:
        target.receive(completion: completion)
        return
      case nil:
        return
      }
    }
  }
}
