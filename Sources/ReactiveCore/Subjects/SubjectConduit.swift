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
  // Declared here, after the lock, so that they fill the lock's padding.
  @usableFromInline
  @exclusivity(unchecked)
  var needsInitialValue: Bool
  /// The subject's kind; the conduit names its subject by it, also after it has ended
  /// and let go of the subject.
  @usableFromInline
  let kind: SubjectKind
  /// Set, under the lock, when the conduit finishes or is cancelled; read without it.
  @usableFromInline
  let isEnded = Atomic(false)
  /// Held while calling into `downstream`, so deliveries never overlap.
  @usableFromInline
  let deliveryLock = RecursiveLock()
  @usableFromInline
  @exclusivity(unchecked)
  var demand = Subscribers.Demand.none
  /// The subscriber, as one reference: the subscriber itself when it is a class, else a
  /// box holding it. Each value takes a strong reference out of the lock; for a struct
  /// subscriber (an operator chain) copying the struct instead cost a retain per closure
  /// in the chain.
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: AnyObject?
  @usableFromInline
  @exclusivity(unchecked)
  var parent: Parent?

  @inlinable
  init(parent: Parent, downstream: Downstream, needsInitialValue: Bool) {
    self.parent = parent
    self.downstream = Self.reference(to: downstream)
    self.needsInitialValue = needsInitialValue
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
    let target = lock.withLock { () -> AnyObject? in
      guard let downstream, demand > 0, !needsInitialValue else {
        // A subject with a current value owes it to a subscriber that had no demand for
        // it: the next request delivers the latest value, as Combine's does.
        if kind.keepsCurrentValue, downstream != nil { needsInitialValue = true }
        return nil
      }
      if demand != .unlimited { demand -= 1 }
      return downstream
    }
    guard let target else { return }
    deliver(value, to: target)
  }

  @inlinable
  func deliver(_ value: Output, to target: AnyObject) {
    let acquired = deliveryLock.enter()
    let more = Self.send(value, to: target)
    deliveryLock.exit(acquired)
    if more > 0 {
      lock.withLock {
        if downstream != nil { demand += more }
      }
    }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> AnyObject? in
      isEnded.store(true, ordering: .releasing)
      defer {
        downstream = nil
        parent = nil
      }
      return downstream
    }
    guard let target else { return }
    deliveryLock.withLock {
      Self.send(completion, to: target)
    }
  }

  @inlinable
  func requestDemand(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    // The subject is taken out of the lock only when it has something to do: a retain
    // and release of it on every request cost `sink` + `cancel` about 7%.
    let taken = lock.withLock { () -> (Parent, AnyObject?)? in
      guard let downstream, let parent else { return nil }
      demand += additional
      guard needsInitialValue else {
        return parent.hasSeenDownstreamDemand ? nil : (parent, nil)
      }
      needsInitialValue = false
      demand -= 1
      return (parent, downstream)
    }
    guard let (parent, target) = taken else { return }
    parent.acknowledgeDownstreamDemand()
    guard let target, let value = parent.initialValue() else { return }
    deliver(value, to: target)
  }

  @inlinable
  func cancelConduit() {
    let taken = lock.withLock { () -> (Parent?, AnyObject?) in
      isEnded.store(true, ordering: .releasing)
      defer {
        downstream = nil
        parent = nil
      }
      return (parent, downstream)
    }
    taken.0?.remove(self)
  }

  @inlinable
  override var isLive: Bool { !isEnded.load(ordering: .acquiring) }

  @usableFromInline
  override var description: String {
    kind.name
  }

  /// Combine's children: the subject (as parent and as subject), the subscriber and the
  /// outstanding demand.
  @usableFromInline
  override var customMirror: Mirror {
    let (parent, downstream, demand) = lock.withLock { (self.parent, self.downstream, self.demand) }
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
