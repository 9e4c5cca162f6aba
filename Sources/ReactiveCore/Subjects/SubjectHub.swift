/// The shared engine of both subjects: the conduit list, the current value, the
/// completion and the upstream subscriptions, all under one lock.
///
/// Sending copies the conduit list under the lock and offers the value to each conduit
/// after unlocking, so subscribers run without any subject lock held.
@usableFromInline
final class SubjectHub<Output, Failure: Error>: ConduitParent, @unchecked Sendable {
  /// The lock that guards every stored property below.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var conduits = ContiguousArray<SubjectConduit<Output, Failure>>()
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?
  @usableFromInline
  @exclusivity(unchecked)
  var storedValue: Output?
  @exclusivity(unchecked)
  var upstreams: [any Subscription] = []
  @usableFromInline
  let keepsValue: Bool
  @usableFromInline
  let conduitName: String

  init(name: String, currentValue: Output? = nil) {
    conduitName = name
    storedValue = currentValue
    keepsValue = currentValue != nil
  }

  @usableFromInline
  var currentValue: Output? { lock.withLock { storedValue } }

  @usableFromInline
  func initialValue() -> Output? { currentValue }

  // Inlinable so the conduit, and the `offer` closure inside it, are specialised for the
  // concrete subscriber chain in the caller's module.
  @inlinable
  func attach<S: Subscriber>(_ subscriber: S, needsInitialValue: Bool)
  where S.Input == Output, S.Failure == Failure {
    let conduit = Conduit(
      parent: self, downstream: subscriber, needsInitialValue: needsInitialValue)
    // The subscriber gets its subscription before it can be offered anything.
    if let adopting = subscriber as? any ClassSubscriptionAdopting {
      adopting.adopt(conduit)
    } else {
      subscriber.receive(subscription: conduit)
    }
    let finished = lock.withLock { () -> Subscribers.Completion<Failure>? in
      if completion == nil, conduit.isLive { conduits.append(conduit) }
      return completion
    }
    if let finished { conduit.finish(finished) }
  }

  @inlinable
  func send(_ value: Output) {
    let targets = lock.withLock { () -> ContiguousArray<SubjectConduit<Output, Failure>> in
      guard completion == nil else { return [] }
      if keepsValue { storedValue = value }
      return conduits
    }
    for conduit in targets { conduit.offer(value) }
  }

  func complete(_ completion: Subscribers.Completion<Failure>) {
    let targets = lock.withLock { () -> ContiguousArray<SubjectConduit<Output, Failure>>? in
      guard self.completion == nil else { return nil }
      self.completion = completion
      defer {
        conduits = []
        upstreams = []
      }
      return conduits
    }
    for conduit in targets ?? [] { conduit.finish(completion) }
  }

  func adopt(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard completion == nil else { return false }
      upstreams.append(subscription)
      return true
    }
    if accepted { subscription.request(.unlimited) }
  }

  @inlinable
  func remove(_ conduit: SubjectConduit<Output, Failure>) {
    lock.withLock {
      if let index = conduits.firstIndex(where: { $0 === conduit }) {
        conduits.remove(at: index)
      }
    }
  }
}
