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
  /// The whole sequence while the subscription is live, for its description and mirror
  /// (Combine's shape); released with the downstream.
  @exclusivity(unchecked)
  private var elements: Elements?
  /// The description once the subscription has ended.
  private let endedName: String
  /// Whether the mirror shows the completion (a `Record`'s does, a sequence's not).
  private let mirrorsCompletion: Bool

  init(
    _ elements: Elements, completion: Subscribers.Completion<Downstream.Failure>,
    downstream: Downstream, endedName: String, mirrorsCompletion: Bool = false
  ) {
    iterator = elements.makeIterator()
    upcoming = iterator.next()
    self.elements = elements
    self.completion = completion
    self.downstream = downstream
    self.endedName = endedName
    self.mirrorsCompletion = mirrorsCompletion
  }

  /// Sends the subscription; when there is nothing to emit, Combine sends an empty
  /// subscription and the completion at once instead.
  func start() {
    guard let downstream else { return }
    guard upcoming != nil else {
      cancel()
      downstream.receive(subscription: Subscriptions.empty)
      downstream.receive(completion: completion)
      return
    }
    downstream.receive(subscription: self)
  }

  /// The sequence while live (as Combine describes it), then the ended name.
  var description: String {
    lock.withLock { elements }.map { String(describing: $0) } ?? endedName
  }

  func request(_ additional: Subscribers.Demand) {
    // Combine lets a request for no values pass as no demand here.
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
      defer {
        downstream = nil
        elements = nil
      }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func cancel() {
    let released = lock.withLock { () -> (Downstream?, Elements?) in
      defer {
        downstream = nil
        elements = nil
      }
      return (downstream, elements)
    }
    _ = released
  }

  /// Combine's children: the sequence, and for a record also its completion.
  var customMirror: Mirror {
    let sequence: Any = lock.withLock { elements } ?? [Elements.Element]()
    guard mirrorsCompletion else { return Mirror(self, children: ["sequence": sequence]) }
    return Mirror(self, children: ["sequence": sequence, "completion": completion])
  }
  var playgroundDescription: Any { description }
}
