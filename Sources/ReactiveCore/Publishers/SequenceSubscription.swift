/// Emits the elements of a sequence as demand allows, then a fixed completion.
///
/// It looks one element ahead, so the completion follows the last element at once, as in
/// Combine, and an empty sequence completes without waiting for demand.
final class SequenceSubscription<Elements: Sequence, Downstream: Subscriber>:
  Guarded<SequenceSubscription<Elements, Downstream>.State>, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Elements.Element {
  /// Where the subscription stands; guarded by the lock.
  ///
  /// The cursor (iterator and look-ahead element) is here while no thread emits; the
  /// thread that emits takes it out, runs the iterator without the lock, and puts it back
  /// when it stops, so only one thread ever advances the iterator.
  struct State {
    /// The subscriber, until the subscription finishes or is cancelled.
    var downstream: Downstream?
    /// Demand not yet met.
    var demand = Subscribers.Demand.none
    /// The iterator and its look-ahead element; `nil` while a thread emits.
    var cursor: Cursor?
    /// The whole sequence while the subscription is live, for its description and
    /// mirror (Combine's shape); released with the downstream.
    var elements: Elements?
  }

  /// The iterator and the element it produced last, not yet sent.
  struct Cursor {
    /// The iterator over the sequence.
    var iterator: Elements.Iterator
    /// The next element to send; `nil` once the sequence is exhausted.
    var upcoming: Elements.Element?
  }

  private let completion: Subscribers.Completion<Downstream.Failure>
  /// Whether the sequence was empty when subscribed (fixed at creation).
  private let isEmpty: Bool
  /// The description once the subscription has ended.
  private let endedName: String
  /// Whether the mirror shows the completion (a `Record`'s does, a sequence's not).
  private let mirrorsCompletion: Bool

  init(
    _ elements: Elements, completion: Subscribers.Completion<Downstream.Failure>,
    downstream: Downstream, endedName: String, mirrorsCompletion: Bool = false
  ) {
    var iterator = elements.makeIterator()
    let upcoming = iterator.next()
    isEmpty = upcoming == nil
    self.completion = completion
    self.endedName = endedName
    self.mirrorsCompletion = mirrorsCompletion
    super.init(
      state: State(
        downstream: downstream, cursor: Cursor(iterator: iterator, upcoming: upcoming),
        elements: elements))
  }

  /// Sends the subscription; when there is nothing to emit, Combine sends an empty
  /// subscription and the completion at once instead.
  func start() {
    guard let downstream = withLock({ $0.downstream }) else { return }
    guard !isEmpty else {
      cancel()
      downstream.receive(subscription: Subscriptions.empty)
      downstream.receive(completion: completion)
      return
    }
    downstream.receive(subscription: self)
  }

  /// The sequence while live (as Combine describes it), then the ended name.
  var description: String {
    withLock { $0.elements }.map { String(describing: $0) } ?? endedName
  }

  func request(_ additional: Subscribers.Demand) {
    // Combine lets a request for no values pass as no demand here.
    let taken = withLock { state -> Cursor? in
      guard state.downstream != nil else { return nil }
      state.demand += additional
      // Another thread emitting holds the cursor; it sees the new demand.
      return state.cursor.take()
    }
    guard var cursor = taken else { return }
    while true {
      let target = withLock { state -> Downstream? in
        guard let downstream = state.downstream, state.demand > 0, cursor.upcoming != nil
        else {
          state.cursor = cursor
          return nil
        }
        state.demand -= 1
        return downstream
      }
      guard let target, let value = cursor.upcoming else { return }
      cursor.upcoming = cursor.iterator.next()
      let more = target.receive(value)
      if cursor.upcoming == nil {
        withLock { $0.cursor = cursor }
        finish()
        return
      }
      if more > 0 { withLock { $0.demand += more } }
    }
  }

  private func finish() {
    let target = withLock { state -> Downstream? in
      defer {
        state.downstream = nil
        state.elements = nil
      }
      return state.downstream
    }
    target?.receive(completion: completion)
  }

  func cancel() {
    let released = withLock { state -> State in
      defer {
        state.downstream = nil
        state.elements = nil
      }
      return state
    }
    _ = released
  }

  /// Combine's children: the sequence, and for a record also its completion.
  var customMirror: Mirror {
    let sequence: Any = withLock { $0.elements } ?? [Elements.Element]()
    guard mirrorsCompletion else {
      return Mirror(self, children: ["sequence": sequence], ancestorRepresentation: .suppressed)
    }
    return Mirror(
      self, children: ["sequence": sequence, "completion": completion],
      ancestorRepresentation: .suppressed)
  }
  var playgroundDescription: Any { description }
}
