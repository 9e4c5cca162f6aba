import Synchronization

/// One subscriber's connection to a subject: its demand, and the lock that keeps
/// deliveries to it from overlapping.
///
/// The subject keeps conduits in a list and calls ``offer(_:)`` for each value. The base
/// class erases the downstream type so the list is homogeneous; ``Conduit`` is the
/// concrete one, so the call into the subscriber is direct.
@usableFromInline
class SubjectConduit<Output, Failure: Error>: SubscriptionObject, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  /// The one entry point into the concrete conduit: with no `demand`, offers the value
  /// `value` points to; with a demand of zero, cancels; otherwise adds the demand.
  ///
  /// The demand, never the pointer, says which: a value of an empty type (`Void`, as
  /// `objectWillChange` sends) has no storage, so its address is arbitrary and may even
  /// be null. Deciding by the pointer cancelled such subscribers now and then.
  ///
  /// A closure rather than overridable methods: the concrete conduit sets it from its
  /// initialiser, which is specialised in the client's module, so values, demand and
  /// cancellation reach fully specialised code through one indirect call instead of the
  /// unspecialised vtable entries of a generic class. It captures nothing (the conduit
  /// comes in as an argument), so it costs no allocation; and one closure for all three
  /// keeps a live subscription small. The value comes by pointer so that the
  /// unspecialised `request` and `cancel` below need no generic metadata to call it.
  /// Set before the conduit is shared, never changed after.
  @usableFromInline
  @exclusivity(unchecked)
  final var entry: (SubjectConduit, UnsafePointer<Output>?, Subscribers.Demand?) -> Void = {
    _, _, _ in
  }

  /// Delivers a value if the subscriber has demand, and drops it otherwise.
  @inlinable @inline(__always)
  final func offer(_ value: Output) {
    withUnsafePointer(to: value) { entry(self, $0, nil) }
  }

  @usableFromInline
  override init() {}

  /// Delivers the completion and ends the conduit.
  @usableFromInline
  func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

  @usableFromInline
  override final func request(_ demand: Subscribers.Demand) {
    // Combine traps here too; and zero is the cancel signal of `entry`.
    precondition(demand > .none, "API Violation: demand must not be zero")
    entry(self, nil, demand)
  }

  /// Whether the conduit has neither finished nor been cancelled.
  @usableFromInline
  var isLive: Bool { fatalError("abstract") }

  @usableFromInline
  override final func cancel() { entry(self, nil, Subscribers.Demand.none) }

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
  /// Which subject this is, for the conduit's description.
  var kind: SubjectKind { get }
  /// Tells the subject that some subscriber has asked for values, so it may ask its
  /// upstreams.
  func acknowledgeDownstreamDemand()
  /// Whether some subscriber has already asked for values (then acknowledging is moot).
  var hasSeenDownstreamDemand: Bool { get }
}

/// The concrete conduit: one subscriber's demand and delivery.
///
/// A value takes no lock of the conduit's own: the demand is an atomic word, the
/// subscriber is reached through an unretained reference that ``gate`` keeps alive, and
/// the one lock on the way is the delivery lock, which keeps two threads from calling the
/// subscriber at once (the subscriber may send again from inside, re-entrantly).
///
/// - Invariant: `target` holds the subscriber retained until it is released, exactly
///   once, by whoever moves ``gate`` to ended-and-released with no delivery counted: a
///   cancel or completion when nothing is being delivered, or else the last delivery to
///   return. `lock` guards `parent`, orders the slow paths (a request that owes the
///   current value, a cancel, the completion) and is held while ending and releasing.
@usableFromInline
final class Conduit<Parent: ConduitParent, Downstream: Subscriber>: SubjectConduit<
  Parent.Output, Parent.Failure
>, @unchecked Sendable
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
  @usableFromInline
  typealias Output = Parent.Output
  @usableFromInline
  typealias Failure = Parent.Failure

  /// Guards `parent`; see the type's invariant.
  @usableFromInline
  let lock = Lock()
  /// The subject's kind; the conduit names its subject by it, also after it has ended
  /// and let go of the subject.
  @usableFromInline
  let kind: SubjectKind
  /// Bit 0: ended (completed or cancelled); bit 1: `downstream` released; the bits above
  /// count the deliveries in progress, ``delivery`` each.
  @usableFromInline
  let gate = Atomic<UInt>(0)
  /// The outstanding demand: a count in the low bits (``unlimited`` when all are set),
  /// and ``owesValue`` when a subject with a current value owes it to the next request.
  @usableFromInline
  let demand: Atomic<UInt>
  /// Held while calling into the subscriber, so deliveries never overlap.
  @usableFromInline
  let deliveryLock = RecursiveLock()
  /// The subscriber, as one retained reference: the subscriber itself when it is a
  /// class, else a box holding it. Deliveries use it without retaining it.
  @usableFromInline
  let target: Unmanaged<AnyObject>
  @usableFromInline
  @exclusivity(unchecked)
  var parent: Parent?

  @inlinable
  init(parent: Parent, downstream: Downstream, needsInitialValue: Bool) {
    self.parent = parent
    target = Unmanaged.passRetained(Self.reference(to: downstream))
    demand = Atomic(needsInitialValue ? Self.owesValue : 0)
    kind = parent.kind
    super.init()
    entry = { conduit, value, demand in
      let conduit = unsafeDowncast(conduit, to: Conduit.self)
      if let demand {
        if demand == .none { conduit.cancelConduit() } else { conduit.requestDemand(demand) }
      } else if let value {
        conduit.offerValue(value.pointee)
      } else {
        // An empty type whose address came out null: any value of it is the value.
        conduit.offerValue(unsafeBitCast((), to: Output.self))
      }
    }
  }

  /// `gate`'s ended bit.
  @inlinable
  static var ended: UInt { 1 }
  /// `gate`'s released bit.
  @inlinable
  static var released: UInt { 2 }
  /// One delivery in progress, in `gate`.
  @inlinable
  static var delivery: UInt { 4 }
  /// The demand count meaning unlimited.
  @inlinable
  static var unlimited: UInt { UInt(Int.max) }
  /// The demand flag of an owed current value.
  @inlinable
  static var owesValue: UInt { ~unlimited }

  /// The subscriber as one reference. Specialised, the branch folds away.
  @inlinable @inline(__always)
  static func reference(to downstream: Downstream) -> AnyObject {
    if Downstream.self is AnyObject.Type { return unsafeBitCast(downstream, to: AnyObject.self) }
    return SubscriberBox(downstream)
  }

  // The two ways into the subscriber behind a reference. Spelled out rather than one
  // helper taking a closure: measured, the closure version cost each value about 10%.
  // A reference cast forwards the reference it is given; `unsafeBitCast` would make a
  // copy, whose retain and release cost as much as the rest of a delivery.

  /// Delivers `value` to the subscriber behind `reference`.
  @inlinable @inline(__always)
  static func send(_ value: Output, to reference: AnyObject) -> Subscribers.Demand {
    if Downstream.self is AnyObject.Type {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(value)
    }
    return unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).subscriber.receive(value)
  }

  /// Delivers `completion` to the subscriber behind `reference`.
  @inlinable @inline(__always)
  static func send(_ completion: Subscribers.Completion<Failure>, to reference: AnyObject) {
    if Downstream.self is AnyObject.Type {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(completion: completion)
    }
    unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).subscriber.receive(
      completion: completion)
  }

  @inlinable
  func offerValue(_ value: Output) {
    let entered = gate.wrappingAdd(Self.delivery, ordering: .acquiring).oldValue
    if entered & Self.ended == 0, takeDemand() { deliver(value) }
    leave()
  }

  /// Delivers a value; the caller counts as a delivery in `gate` and took its demand.
  @inlinable
  func deliver(_ value: Output) {
    let acquired = deliveryLock.enter()
    let more = target._withUnsafeGuaranteedRef { Self.send(value, to: $0) }
    deliveryLock.exit(acquired)
    if more > 0 { addDemand(more) }
  }

  /// Ends a delivery counted in `gate`; the last one out after the end releases the
  /// subscriber.
  @inlinable @inline(__always)
  func leave() {
    let left = gate.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing).newValue
    if left == Self.ended { releaseIfIdle() }
  }

  /// Releases the subscriber if the conduit has ended, nothing is being delivered and
  /// nobody released it yet.
  @inlinable
  func releaseIfIdle() {
    guard
      gate.compareExchange(
        expected: Self.ended, desired: Self.ended | Self.released,
        ordering: .acquiringAndReleasing
      ).exchanged
    else { return }
    lock.withLock { target.release() }
  }

  deinit {
    // Never ended (its subject went away first): the subscriber is still held.
    if gate.load(ordering: .acquiring) & Self.released == 0 { target.release() }
  }

  /// The subscriber, retained, unless it was released.
  @usableFromInline
  var downstream: AnyObject? {
    lock.withLock {
      gate.load(ordering: .acquiring) & Self.released == 0 ? target.takeUnretainedValue() : nil
    }
  }

  /// Takes one unit of demand, if there is one and no current value is owed.
  @inlinable @inline(__always)
  func takeDemand() -> Bool {
    var word = demand.load(ordering: .relaxed)
    while true {
      if word == Self.unlimited { return true }
      if word == 0 || word & Self.owesValue != 0 { return missedValue() }
      let (exchanged, original) = demand.compareExchange(
        expected: word, desired: word - 1, ordering: .relaxed)
      if exchanged { return true }
      word = original
    }
  }

  /// A value found no demand: a subject with a current value owes it to the next request,
  /// as Combine's does. Returns whether demand arrived meanwhile after all.
  @usableFromInline
  func missedValue() -> Bool {
    guard kind.keepsCurrentValue else { return false }
    return lock.withLock { () -> Bool in
      var word = demand.load(ordering: .relaxed)
      while true {
        if word & Self.owesValue != 0 { return false }
        let desired = word == 0 ? Self.owesValue : word == Self.unlimited ? word : word - 1
        let (exchanged, original) = demand.compareExchange(
          expected: word, desired: desired, ordering: .relaxed)
        if exchanged { return word != 0 }
        word = original
      }
    }
  }

  /// Adds demand, saturating at unlimited, keeping the owed-value flag.
  @inlinable
  func addDemand(_ more: Subscribers.Demand) {
    let count = more.max.map { UInt($0) } ?? Self.unlimited
    var word = demand.load(ordering: .relaxed)
    while true {
      let flag = word & Self.owesValue
      let current = word & Self.unlimited
      let sum =
        current == Self.unlimited || count >= Self.unlimited - current
        ? Self.unlimited : current + count
      let (exchanged, original) = demand.compareExchange(
        expected: word, desired: flag | sum, ordering: .relaxed)
      if exchanged { return }
      word = original
    }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    guard let entered = end() else { return }
    if entered & Self.ended == 0 {
      deliveryLock.withLock {
        target._withUnsafeGuaranteedRef { Self.send(completion, to: $0) }
      }
    }
    leave()
  }

  /// Marks the conduit ended and lets go of the subject; returns `gate` as it was, with
  /// the caller counted as a delivery (to ``leave()`` when done), or `nil` if the
  /// conduit had already ended.
  @inlinable
  func end() -> UInt? {
    lock.lock()
    defer { lock.unlock() }
    var word = gate.load(ordering: .relaxed)
    while word & Self.ended == 0 {
      let (exchanged, original) = gate.compareExchange(
        expected: word, desired: (word | Self.ended) &+ Self.delivery,
        ordering: .acquiringAndReleasing)
      if exchanged {
        parent = nil
        return word
      }
      word = original
    }
    return nil
  }

  @inlinable
  func requestDemand(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    // The subject is taken out of the lock only when it has something to do: a retain
    // and release of it on every request cost `sink` + `cancel` about 7%.
    lock.lock()
    guard let parent, gate.load(ordering: .relaxed) & Self.ended == 0 else {
      return lock.unlock()
    }
    let owed = demand.load(ordering: .relaxed) & Self.owesValue != 0
    if owed {
      // Clear the flag first, so that the added demand cannot be spent by a value sent
      // meanwhile before the owed one goes out.
      demand.subtract(Self.owesValue, ordering: .relaxed)
      if additional > 1 { addDemand(additional - 1) }
    } else {
      addDemand(additional)
    }
    let acknowledged = parent.hasSeenDownstreamDemand
    let subject = owed || !acknowledged ? parent : nil
    lock.unlock()
    guard let subject else { return }
    subject.acknowledgeDownstreamDemand()
    guard owed, let value = subject.initialValue() else { return }
    let entered = gate.wrappingAdd(Self.delivery, ordering: .acquiring).oldValue
    if entered & Self.ended == 0 { deliver(value) }
    leave()
  }

  @inlinable
  func cancelConduit() {
    lock.lock()
    let entered = gate.bitwiseOr(Self.ended, ordering: .acquiringAndReleasing).oldValue
    guard entered & Self.ended == 0 else { return lock.unlock() }
    let parent = self.parent
    self.parent = nil
    lock.unlock()
    if entered < Self.delivery { releaseIfIdle() }
    parent?.remove(self)
  }

  @inlinable
  override var isLive: Bool { gate.load(ordering: .acquiring) & Self.ended == 0 }

  @usableFromInline
  override var description: String {
    kind.name
  }

  /// Combine's children: the subject (as parent and as subject), the subscriber and the
  /// outstanding demand.
  @usableFromInline
  override var customMirror: Mirror {
    let parent = lock.withLock { self.parent }
    let downstream = self.downstream
    let count = demand.load(ordering: .relaxed) & Self.unlimited
    let demand: Subscribers.Demand = count == Self.unlimited ? .unlimited : .max(Int(count))
    let subscriber: Any? = (downstream as? SubscriberBox<Downstream>)?.subscriber ?? downstream
    return Mirror(
      self,
      children: [
        "parent": parent as Any, "downstream": subscriber as Any, "demand": demand,
        "subject": parent as Any,
      ])
  }
}

/// Holds a subscriber that is a struct, so that a conduit can take it out of its lock
/// with one retain.
@usableFromInline
final class SubscriberBox<Subscriber> {
  @usableFromInline
  let subscriber: Subscriber

  @inlinable
  init(_ subscriber: Subscriber) { self.subscriber = subscriber }
}
