/// One subscriber's connection to a subject: its demand, and the lock that keeps
/// deliveries to it from overlapping.
///
/// The subject keeps conduits in a list and calls ``offer(_:)`` for each value. The base
/// class erases the downstream type so the list is homogeneous; ``Conduit`` is the
/// concrete one, so the call into the subscriber is direct.
@usableFromInline
class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // The entry points into the concrete conduit. Closures rather than overridable
  // methods: the concrete conduit sets them from its initialiser, which is specialised in
  // the client's module, so values, demand and cancellation reach fully specialised code
  // through one indirect call instead of the unspecialised vtable entry of a generic
  // class. They capture nothing (the conduit comes in as an argument), so they cost no
  // allocation. Set before the conduit is shared, never changed after.

  /// Delivers a value if the subscriber has demand, and drops it otherwise.
  @usableFromInline
  @exclusivity(unchecked)
  final var offer: (SubjectConduit, Output) -> Void = { _, _ in }
  @usableFromInline
  @exclusivity(unchecked)
  final var requestEntry: (SubjectConduit, Subscribers.Demand) -> Void = { _, _ in }
  @usableFromInline
  @exclusivity(unchecked)
  final var cancelEntry: (SubjectConduit) -> Void = { _ in }

  @usableFromInline
  init() {}

  /// Delivers the completion and ends the conduit.
  @usableFromInline
  func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

  @usableFromInline
  final func request(_ demand: Subscribers.Demand) { requestEntry(self, demand) }

  /// Whether the conduit has neither finished nor been cancelled.
  @usableFromInline
  var isLive: Bool { fatalError("abstract") }

  @usableFromInline
  final func cancel() { cancelEntry(self) }

  @usableFromInline
  var description: String { "Subject" }

  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  var playgroundDescription: Any { description }
}

/// How a conduit reaches back to its subject.
@usableFromInline
protocol ConduitParent<Output, Failure>: AnyObject, Sendable {
  associatedtype Output
  associatedtype Failure: Error
  /// Forgets a cancelled conduit.
  func remove(_ conduit: SubjectConduit<Output, Failure>)
  /// The value to deliver before any other, for subjects that have one.
  func initialValue() -> Output?
  /// The name the conduit describes itself by.
  var conduitName: String { get }
}

@usableFromInline
final class Conduit<Parent: ConduitParent, Downstream: Subscriber>: SubjectConduit<
  Parent.Output, Parent.Failure
>, @unchecked Sendable
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
  @usableFromInline
  typealias Output = Parent.Output
  @usableFromInline
  typealias Failure = Parent.Failure

  /// The lock that guards `demand`, `downstream`, `parent` and `needsInitialValue`.
  @usableFromInline
  let lock = Lock()
  /// Held while calling into `downstream`, so deliveries never overlap.
  @usableFromInline
  let deliveryLock = RecursiveLock()
  @usableFromInline
  @exclusivity(unchecked)
  var demand = Subscribers.Demand.none
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?
  @usableFromInline
  @exclusivity(unchecked)
  var parent: Parent?
  @usableFromInline
  @exclusivity(unchecked)
  var needsInitialValue: Bool

  @inlinable
  init(parent: Parent, downstream: Downstream, needsInitialValue: Bool) {
    self.parent = parent
    self.downstream = downstream
    self.needsInitialValue = needsInitialValue
    super.init()
    offer = { conduit, value in unsafeDowncast(conduit, to: Conduit.self).offerValue(value) }
    requestEntry = { conduit, demand in
      unsafeDowncast(conduit, to: Conduit.self).requestDemand(demand)
    }
    cancelEntry = { conduit in unsafeDowncast(conduit, to: Conduit.self).cancelConduit() }
  }

  @inlinable
  func offerValue(_ value: Output) {
    let target = lock.withLock { () -> Downstream? in
      guard let downstream, demand > 0, !needsInitialValue else { return nil }
      if demand != .unlimited { demand -= 1 }
      return downstream
    }
    guard let target else { return }
    deliver(value, to: target)
  }

  @inlinable
  func deliver(_ value: Output, to target: Downstream) {
    let more = deliveryLock.withLock { target.receive(value) }
    if more > 0 {
      lock.withLock {
        if downstream != nil { demand += more }
      }
    }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      defer {
        downstream = nil
        parent = nil
      }
      return downstream
    }
    guard let target else { return }
    deliveryLock.withLock { target.receive(completion: completion) }
  }

  @inlinable
  func requestDemand(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    let initial = lock.withLock { () -> (Parent, Downstream)? in
      guard let downstream, let parent else { return nil }
      demand += additional
      guard needsInitialValue else { return nil }
      needsInitialValue = false
      demand -= 1
      return (parent, downstream)
    }
    guard let (parent, target) = initial, let value = parent.initialValue() else { return }
    deliver(value, to: target)
  }

  @inlinable
  func cancelConduit() {
    let taken = lock.withLock { () -> (Parent?, Downstream?) in
      defer {
        downstream = nil
        parent = nil
      }
      return (parent, downstream)
    }
    taken.0?.remove(self)
  }

  @usableFromInline
  override var isLive: Bool { lock.withLock { downstream != nil } }

  @usableFromInline
  override var description: String { lock.withLock { parent?.conduitName } ?? "Subject" }
}
