/// Emits the elements of a sequence as demand allows, then a fixed completion.
///
/// It looks one element ahead, so the completion follows the last element at once, as in
/// Combine, and an empty sequence completes without waiting for demand.
final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Elements.Element {
  /// The lock that guards `downstream`, `demand` and `isEmitting`. The iterator and the
  /// look-ahead element are touched only by the one thread that holds `isEmitting`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var isEmitting = false
  @exclusivity(unchecked)
  private var iterator: Elements.Iterator
  @exclusivity(unchecked)
  private var upcoming: Elements.Element?
  private let completion: Subscribers.Completion<Downstream.Failure>
  let description: String

  init(
    _ elements: Elements, completion: Subscribers.Completion<Downstream.Failure>,
    downstream: Downstream, name: String
  ) {
    iterator = elements.makeIterator()
    upcoming = iterator.next()
    self.completion = completion
    self.downstream = downstream
    description = name
  }

  /// Sends the subscription, and the completion at once when there is nothing to emit.
  func start() {
    guard let downstream else { return }
    downstream.receive(subscription: self)
    if upcoming == nil { finish() }
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    let mayEmit = lock.withLock { () -> Bool in
      guard downstream != nil else { return false }
      demand += additional
      guard !isEmitting else { return false }
      isEmitting = true
      return true
    }
    guard mayEmit else { return }
    while true {
      let target = lock.withLock { () -> Downstream? in
        guard let downstream, demand > 0, upcoming != nil else {
          isEmitting = false
          return nil
        }
        demand -= 1
        return downstream
      }
      guard let target, let value = upcoming else { return }
      upcoming = iterator.next()
      let more = target.receive(value)
      if upcoming == nil {
        lock.withLock { isEmitting = false }
        finish()
        return
      }
      if more > 0 { lock.withLock { demand += more } }
    }
  }

  private func finish() {
    let target = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func cancel() {
    let released = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    _ = released
  }

  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
