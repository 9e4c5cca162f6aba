import Synchronization

/// The shared engine of both subjects: the conduit list, the current value, the
/// completion and the upstream subscriptions, all under one lock.
///
/// Sending takes the conduit list under the lock and offers the value to each conduit
/// after unlocking, so subscribers run without any subject lock held. The send walks the
/// list's storage in place, counted in ``sending`` rather than holding a reference; a
/// change to the list while sends walk it copies the list and keeps the old storage in
/// ``SubjectHubState/retired`` until the last of them ends.
@usableFromInline
final class SubjectHub<Output, Failure: Error>: Guarded<SubjectHubState<Output, Failure>>,
  ConduitParent, CustomStringConvertible, CustomReflectable, @unchecked Sendable
{
  /// `hasAnyDownstreamDemand`, readable without the lock (it only ever becomes true), so
  /// that requests after the first cost no lock.
  @usableFromInline
  let sawDownstreamDemand = Atomic(false)
  /// Set, under the lock, when the subject completes; read without it on subscribe.
  @usableFromInline
  let isCompleted = Atomic(false)
  @usableFromInline
  let keepsValue: Bool
  /// Set, under the lock, once the subject has adopted an upstream subscription; read
  /// without it on subscribe, so that only a subject fed by a publisher pays for
  /// ``attach(_:parent:needsInitialValue:)``'s deferral of the first upstream request.
  @usableFromInline
  let hasUpstreams = Atomic(false)
  /// How many sends are walking the conduit list now (see ``send(_:storing:)``), plus
  /// ``retiredFlag`` while ``SubjectHubState/retired`` holds lists to free once none is.
  /// One word, so that the last send out and a change retiring a list meanwhile see each
  /// other: their read-modify-writes of it are ordered, and the later one frees.
  @usableFromInline
  let sending = Atomic(0)

  /// The bit of ``sending`` that says lists wait in ``SubjectHubState/retired``.
  @inlinable
  static var retiredFlag: Int { 1 << 48 }

  @usableFromInline
  let kind: SubjectKind

  /// The subject's name, as a conduit's mirror shows its parent.
  @usableFromInline
  var description: String { kind.name }

  /// No children: a conduit's mirror shows the subject by name, as Combine's shows it.
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  init(kind: SubjectKind, currentValue: Output? = nil) {
    self.kind = kind
    keepsValue = currentValue != nil
    super.init(state: SubjectHubState(storedValue: currentValue))
  }

  @usableFromInline
  var currentValue: Output? { withLock { $0.storedValue } }

  @usableFromInline
  func initialValue() -> Output? { currentValue }

  // Inlinable so the conduit, and the `offer` closure inside it, are specialised for the
  // concrete subscriber chain in the caller's module.
  //
  // Returns the subscriber's conduit, or `nil` when the subject had completed (the
  // subscriber got the completion through an empty subscription).
  //
  // `parent` is the subject, which the conduit keeps until it ends.
  @inlinable @discardableResult
  func attach<S: Subscriber, Parent: ConduitParent<Output, Failure>>(
    _ subscriber: S, parent: Parent, needsInitialValue: Bool
  ) -> SubjectConduit<Output, Failure>?
  where S.Input == Output, S.Failure == Failure {
    // As in Combine, a subscriber that comes after the completion gets it through an
    // empty subscription.
    if isCompleted.load(ordering: .acquiring), let finished = withLock({ $0.completion }) {
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: finished)
      return nil
    }
    let conduit = Conduit(
      parent: parent, downstream: subscriber, needsInitialValue: needsInitialValue)
    // A PassthroughSubject fed by a publisher asks it for values at the first downstream
    // demand, and the publisher may answer at once, from inside that request. When the
    // demand comes from this subscriber's own receive(subscription:), the conduit is not
    // in the list yet; so the first upstream request waits until it is, and the
    // subscriber gets the value, as in Combine.
    let defers =
      !keepsValue && hasUpstreams.load(ordering: .acquiring)
      && !sawDownstreamDemand.load(ordering: .acquiring)
      && withLock { state -> Bool in
        guard !state.hasAnyDownstreamDemand else { return false }
        state.attaching += 1
        return true
      }
    // The subscriber gets its subscription before it can be offered anything.
    if let adopting = subscriber as? any ClassSubscriptionAdopting {
      adopting.adopt(conduit)
    } else {
      subscriber.receive(subscription: conduit)
    }
    let (finished, deferred) = withLock {
      state -> (Subscribers.Completion<Failure>?, [any Subscription]) in
      if state.completion == nil, conduit.isLive {
        retireListIfSending(&state)
        state.conduits.append(conduit)
      }
      guard defers else { return (state.completion, []) }
      state.attaching -= 1
      guard state.attaching == 0, state.demandWhileAttaching else {
        return (state.completion, [])
      }
      state.demandWhileAttaching = false
      return (state.completion, markDownstreamDemandLocked(&state))
    }
    for subscription in deferred { subscription.request(.unlimited) }
    if let finished { conduit.finish(finished) }
    return conduit
  }

  /// Records the first downstream demand; returns the upstreams to ask for values now.
  /// Call with the lock held.
  @usableFromInline
  func markDownstreamDemandLocked(_ state: inout SubjectHubState<Output, Failure>)
    -> [any Subscription]
  {
    guard !state.hasAnyDownstreamDemand else { return [] }
    state.hasAnyDownstreamDemand = true
    sawDownstreamDemand.store(true, ordering: .releasing)
    // A subject with a current value asked its upstreams when it adopted them.
    return keepsValue ? [] : state.upstreams
  }

  /// Stores `value` as the current value, whether or not the subject has completed.
  func setCurrentValue(_ value: Output) {
    withLock { $0.storedValue = value }
  }

  /// Sends `value` to every conduit; `storing` is whether the subject keeps it as its
  /// current value (a constant at each subject's call, so that a passthrough send does
  /// not test the hub's ``keepsValue``).
  @inlinable
  func send(_ value: Output, storing: Bool) {
    // The list is walked in place, without the lock and without a reference of its own:
    // counting this send in `sending` keeps its storage as it is until the walk ends
    // (see ``SubjectHubState/retired``). Retaining a copy instead, and releasing it after,
    // cost a value about 40 of its 280 instructions (`subject_sink`).
    let walked = withLock { state -> UnsafeBufferPointer<SubjectConduit<Output, Failure>>? in
      guard state.completion == nil else { return nil }
      if storing { state.storedValue = value }
      sending.wrappingAdd(1, ordering: .relaxed)
      // The pointer outlives the closure on purpose: `sending` keeps the storage.
      return state.conduits.withUnsafeBufferPointer { $0 }
    }
    guard let walked else { return }
    for index in walked.indices {
      // The list keeps every conduit alive: reach each without a retain of its own.
      Unmanaged.passUnretained(walked[index])._withUnsafeGuaranteedRef { $0.offer(value) }
    }
    // The last send out frees the lists a change retired meanwhile.
    if sending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == Self.retiredFlag {
      freeRetiredLists()
    }
  }

  /// Makes the next change to the conduit list leave the storage that sends are walking
  /// as it is: if any send is walking it, it is kept in ``SubjectHubState/retired`` (so
  /// the change copies it, as a shared array does). Call with the lock held, before
  /// changing `state.conduits`.
  @inlinable @inline(__always)
  func retireListIfSending(_ state: inout SubjectHubState<Output, Failure>) {
    if sending.load(ordering: .acquiring) != 0 { retireList(&state) }
  }

  /// ``retireListIfSending(_:)``'s rare half, out of line.
  @usableFromInline
  func retireList(_ state: inout SubjectHubState<Output, Failure>) {
    // (Under the lock, so no send starts meanwhile: the count only goes down.)
    if sending.load(ordering: .acquiring) & (Self.retiredFlag - 1) == 0 {
      // No send walks any list: what is retired can go now (a last send out is on its
      // way to doing so, and will find nothing).
      takeRetiredLocked(&state)
      return
    }
    state.retired.append(state.conduits)
    let before = sending.bitwiseOr(Self.retiredFlag, ordering: .acquiringAndReleasing).oldValue
    // The last send left between the check and the flag, so it did not see the flag.
    // (Freed under the lock, as a change that removes a conduit lets go of it: a conduit
    // leaves the list only once it has ended, so it no longer holds its subscriber.)
    if before & (Self.retiredFlag - 1) == 0 { takeRetiredLocked(&state) }
  }

  /// Frees the retired lists once no send is walking any of them.
  @usableFromInline
  func freeRetiredLists() {
    let taken = withLock { state -> [ContiguousArray<SubjectConduit<Output, Failure>>] in
      guard sending.load(ordering: .acquiring) == Self.retiredFlag else { return [] }
      return takeRetiredLocked(&state)
    }
    // Freed outside the lock, so that other threads' sends do not wait on it.
    _ = taken
  }

  /// Takes the retired lists out of the state and clears ``retiredFlag``; call with the
  /// lock held and no send walking.
  @usableFromInline
  @discardableResult
  func takeRetiredLocked(_ state: inout SubjectHubState<Output, Failure>)
    -> [ContiguousArray<SubjectConduit<Output, Failure>>]
  {
    sending.bitwiseAnd(~Self.retiredFlag, ordering: .acquiringAndReleasing)
    defer { state.retired = [] }
    return state.retired
  }

  func complete(_ completion: Subscribers.Completion<Failure>) {
    let targets = withLock { state -> ContiguousArray<SubjectConduit<Output, Failure>>? in
      guard state.completion == nil else { return nil }
      state.completion = completion
      isCompleted.store(true, ordering: .releasing)
      // Upstream subscriptions stay until the subject goes away, as in Combine.
      retireListIfSending(&state)
      defer {
        state.conduits = []
        state.endedConduits = 0
      }
      return state.conduits
    }
    for conduit in targets ?? [] { conduit.finish(completion) }
  }

  /// Keeps an upstream subscription: a `CurrentValueSubject` asks it for unlimited values
  /// at once, a `PassthroughSubject` once some subscriber has demand (Combine's shapes).
  func adopt(_ subscription: any Subscription) {
    let requests = withLock { state -> Bool in
      state.upstreams.append(subscription)
      hasUpstreams.store(true, ordering: .releasing)
      return keepsValue || state.hasAnyDownstreamDemand
    }
    if requests { subscription.request(.unlimited) }
  }

  @inlinable
  var hasSeenDownstreamDemand: Bool { sawDownstreamDemand.load(ordering: .acquiring) }

  @usableFromInline
  var reflectedParent: Any { self }

  @inlinable
  func acknowledgeDownstreamDemand() {
    guard !sawDownstreamDemand.load(ordering: .acquiring) else { return }
    firstDownstreamDemand()
  }

  /// Marks the first downstream demand and asks the waiting upstreams for values.
  @usableFromInline
  func firstDownstreamDemand() {
    let waiting = withLock { state -> [any Subscription] in
      // While a subscriber is being attached, its own first request waits for the attach
      // to finish (see attach(_:parent:needsInitialValue:)).
      if state.attaching > 0, !state.hasAnyDownstreamDemand {
        state.demandWhileAttaching = true
        return []
      }
      return markDownstreamDemandLocked(&state)
    }
    for subscription in waiting { subscription.request(.unlimited) }
  }

  /// Cancels every upstream subscription; the subject calls it when it goes away.
  func cancelUpstreams() {
    let taken = withLock { state -> [any Subscription] in
      defer { state.upstreams = [] }
      return state.upstreams
    }
    for subscription in taken { subscription.cancel() }
  }

  /// Forgets a cancelled conduit in constant time: the conduit has already ended (so
  /// sends skip it, and it has let go of its subscriber), and it leaves the list at the
  /// next compaction, which runs once the ended conduits outnumber the live ones. So a
  /// cancel costs O(1) amortised however many subscribers stay, the list never holds
  /// more than twice the live conduits (plus a few), and order is kept.
  ///
  /// The newest conduit leaves at once, with any ended ones it was the last to follow:
  /// so the conduit of a lone subscriber, or of the last to subscribe, is released at its
  /// cancel, as Combine releases every conduit (each ended conduit popped this way was
  /// counted when it was cancelled, so this stays O(1) amortised).
  @inlinable
  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    withLock { state in
      if let last = state.conduits.last, last === conduit {
        retireListIfSending(&state)
        state.conduits.removeLast()
        while let last = state.conduits.last, !last.isLive {
          state.conduits.removeLast()
          state.endedConduits = max(0, state.endedConduits - 1)
        }
        return
      }
      state.endedConduits += 1
      guard state.endedConduits > SubjectHubState<Output, Failure>.compactionFloor,
        state.endedConduits * 2 > state.conduits.count
      else { return }
      retireListIfSending(&state)
      state.conduits.removeAll { !$0.isLive }
      state.endedConduits = 0
    }
  }
}

/// Everything about a subject that changes, behind the hub's lock.
@usableFromInline
struct SubjectHubState<Output, Failure: Error> {
  /// The subscribers' conduits, in subscription order.
  ///
  /// - Important: Sends walk this list's storage without the lock. Every change to it
  ///   calls ``SubjectHub/retireListIfSending(_:)`` first, under the lock, so that a
  ///   change made while sends walk copies the list instead of rewriting or freeing it.
  @usableFromInline
  var conduits = ContiguousArray<SubjectConduit<Output, Failure>>()
  /// Lists of conduits that sends may still be walking, kept from the moment a change to
  /// `conduits` would have rewritten or freed them (so the change copied instead) until
  /// no send is walking: a send walks the list's storage in place, counted in
  /// ``SubjectHub/sending``, holding no reference of its own.
  @usableFromInline
  var retired: [ContiguousArray<SubjectConduit<Output, Failure>>] = []
  /// How many conduits in `conduits` were cancelled since the last compaction (see
  /// ``SubjectHub/remove(_:)``).
  @usableFromInline
  var endedConduits = 0
  /// Below this many ended conduits, the list is never compacted: a few stale entries
  /// cost a send less than compacting often would.
  @usableFromInline
  static var compactionFloor: Int { 8 }
  /// The completion, once sent.
  @usableFromInline
  var completion: Subscribers.Completion<Failure>?
  /// The current value, for subjects that keep one.
  @usableFromInline
  var storedValue: Output?
  /// The subscriptions of publishers this subject subscribed to.
  @usableFromInline
  var upstreams: [any Subscription] = []
  /// Set once any subscriber has asked for values: from then on a `PassthroughSubject`
  /// asks its upstreams for unlimited values, as Combine's does.
  @usableFromInline
  var hasAnyDownstreamDemand = false
  /// Subscribers being attached while a `PassthroughSubject` fed by a publisher has seen
  /// no demand yet.
  @usableFromInline
  var attaching = 0
  /// A first downstream demand came while `attaching` was not zero; the last attach to
  /// finish asks the upstreams.
  @usableFromInline
  var demandWhileAttaching = false

  @usableFromInline
  init(storedValue: Output?) { self.storedValue = storedValue }
}
