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
  /// The one way into the concrete conduit, for each ``ConduitEvent``.
  ///
  /// A closure rather than overridable methods: the concrete conduit makes it in its
  /// initialiser, which is specialised in the client's module, so values, requests and
  /// cancels reach fully specialised code through one indirect call instead of the
  /// unspecialised vtable entries of a generic class (measured: a `sink` + `cancel`
  /// through those took twice the instructions). It captures nothing (the conduit comes
  /// in as an argument), so it costs no allocation, and one closure for the three events
  /// keeps a live subscription small. Events are not generic, so the closure's type
  /// needs no reabstraction.
  @usableFromInline
  final let entry: (SubjectConduit, ConduitEvent) -> Void

  /// Delivers a value if the subscriber has demand, and drops it otherwise.
  @inlinable @inline(__always)
  final func offer(_ value: Output) {
    withUnsafePointer(to: value) { entry(self, .value(UnsafeRawPointer($0))) }
  }

  @usableFromInline
  init(entry: @escaping (SubjectConduit, ConduitEvent) -> Void) {
    self.entry = entry
  }

  @usableFromInline
  override final func request(_ demand: Subscribers.Demand) {
    // Combine traps here too.
    precondition(demand > .none, "API Violation: demand must not be zero")
    entry(self, .request(demand))
  }

  @usableFromInline
  override final func cancel() { entry(self, .cancel) }

  /// Delivers the completion and ends the conduit.
  @usableFromInline
  func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

  /// Whether the conduit has neither finished nor been cancelled.
  @usableFromInline
  var isLive: Bool { fatalError("abstract") }

  @usableFromInline
  var description: String { "Subject" }

  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }

  @usableFromInline
  var playgroundDescription: Any { description }
}

/// What happens to a conduit: the events its one entry point takes.
@usableFromInline
enum ConduitEvent {
  /// A value to offer, by address; `nil` for the one value of an empty type (`Void`, as
  /// `objectWillChange` sends), whose address is arbitrary and may come out null.
  case value(UnsafeRawPointer?)
  /// The subscriber asks for more.
  case request(Subscribers.Demand)
  /// The subscriber cancels.
  case cancel
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
/// A value takes one lock, the delivery lock that keeps two threads from calling the
/// subscriber at once (it is recursive: the subscriber may send again from inside), and
/// no other atomic read-modify-write when the demand is unlimited. The rest is one atomic
/// word, ``state``: the demand, whether a current value is owed, whether the conduit has
/// ended, is delivering its completion, or has released its subscriber. The subscriber is
/// reached unretained; holding the delivery lock keeps it alive.
///
/// The conduit is most of what a live subscription costs, so its fields are packed into
/// 72 bytes (one malloc size class below Combine-shaped field-per-fact layouts): the two
/// mutexes are bare, and whether to annotate them for the thread sanitizer is a bit of
/// `state` rather than a field of each.
///
/// - Invariant: `target` holds the subscriber retained until it is released, exactly
///   once, by whoever sets `released` in `state`, which happens only with the delivery
///   lock held (taken with a try, never waited for), once the conduit has ended and its
///   completion, if any, is delivered. Whoever ends the conduit tries to release it; a
///   delivery that held the lock meanwhile makes that try fail, so every delivery looks
///   at `state` again after unlocking and releases what is due. A delivery checks
///   `state` after locking, so it never reaches a released subscriber. `stateMutex`
///   guards `parent` and is held while releasing.
@usableFromInline
final class Conduit<Parent: ConduitParent, Downstream: Subscriber>: SubjectConduit<
  Parent.Output, Parent.Failure
>, @unchecked Sendable
where Downstream.Input == Parent.Output, Downstream.Failure == Parent.Failure {
  @usableFromInline
  typealias Output = Parent.Output
  @usableFromInline
  typealias Failure = Parent.Failure

  /// The thread inside the delivery lock, or 0.
  @usableFromInline
  let deliveryOwner = Atomic<UInt>(0)
  /// Held while calling into the subscriber, so deliveries never overlap.
  @usableFromInline
  let deliveryMutex = Mutex<Void>(())
  /// Guards `parent`; see the type's invariant.
  @usableFromInline
  let stateMutex = Mutex<Void>(())
  /// Everything else, in one word (see the bit accessors below).
  @usableFromInline
  let state: Atomic<UInt>
  /// The subscriber, as one retained reference: the subscriber itself when it is a
  /// class, else a box holding it. Deliveries use it without retaining it.
  @usableFromInline
  let target: Unmanaged<AnyObject>
  /// The subject, until the conduit ends; guarded by `stateMutex`.
  @usableFromInline
  @exclusivity(unchecked)
  var parent: Parent?

  @inlinable
  init(parent: Parent, downstream: Downstream, needsInitialValue: Bool) {
    self.parent = parent
    // Decided once here: a type check per value, as `Downstream.self is AnyObject.Type`
    // costs unless the optimizer folds it (it often does not), doubled a delivery.
    let isClass = Downstream.self is AnyObject.Type
    target = Unmanaged.passRetained(
      isClass ? unsafeBitCast(downstream, to: AnyObject.self) : SubscriberBox(downstream))
    state = Atomic(
      (needsInitialValue ? Self.owesValue : 0) | (isClass ? 0 : Self.boxed)
        | (ThreadSanitizerHooks.isActive ? Self.tracked : 0)
        | UInt(parent.kind.rawValue) << Self.kindShift)
    super.init { conduit, event in
      let conduit = unsafeDowncast(conduit, to: Conduit.self)
      switch event {
      case .value(let value?):
        conduit.offerValue(value.assumingMemoryBound(to: Output.self).pointee)
      case .value(nil):
        // An empty type whose address came out null: any value of it is the value.
        conduit.offerValue(unsafeBitCast((), to: Output.self))
      case .request(let demand):
        conduit.requestDemand(demand)
      case .cancel:
        conduit.cancelConduit()
      }
    }
  }

  deinit {
    // Never ended (its subject went away first): the subscriber is still held.
    if state.load(ordering: .acquiring) & Self.released == 0 { target.release() }
  }

  // MARK: The state word

  /// Completed or cancelled.
  @inlinable
  static var ended: UInt { 1 }
  /// The subscriber has been released.
  @inlinable
  static var released: UInt { 1 << 1 }
  /// A subject with a current value owes it to the next request, as Combine's does.
  @inlinable
  static var owesValue: UInt { 1 << 2 }
  /// The process runs under the thread sanitizer: annotate the mutexes.
  @inlinable
  static var tracked: UInt { 1 << 3 }
  /// Where the subject's kind sits (2 bits).
  @inlinable
  static var kindShift: UInt { 4 }
  /// The completion is on its way to the subscriber: releasing it waits.
  @inlinable
  static var completing: UInt { 1 << 6 }
  /// The subscriber is a struct, held in a ``SubscriberBox``.
  @inlinable
  static var boxed: UInt { 1 << 7 }
  /// Where the demand count sits: the high bits.
  @inlinable
  static var demandShift: UInt { 8 }
  /// The demand count that means unlimited (and any count that would reach it).
  @inlinable
  static var unlimited: UInt { UInt.max >> demandShift }

  /// The outstanding demand in `word`.
  @inlinable @inline(__always)
  static func demandCount(_ word: UInt) -> UInt { word >> demandShift }

  /// `word` with its demand count replaced.
  @inlinable @inline(__always)
  static func word(_ word: UInt, demand: UInt) -> UInt {
    word & ~(unlimited << demandShift) | demand << demandShift
  }

  /// `current` plus `more`, saturating at unlimited.
  @inlinable @inline(__always)
  static func adding(_ more: Subscribers.Demand, to current: UInt) -> UInt {
    guard current != unlimited, let count = more.max, UInt(count) < unlimited - current else {
      return unlimited
    }
    return current + UInt(count)
  }

  /// Whether `word` says the subscriber is due for release: ended, completion delivered,
  /// not yet released.
  @inlinable @inline(__always)
  static func isDueForRelease(_ word: UInt) -> Bool {
    word & (ended | completing | released) == ended
  }

  /// The subject's kind; the conduit names its subject by it, also after it has ended
  /// and let go of the subject.
  @inlinable
  var kind: SubjectKind {
    let raw = UInt8(state.load(ordering: .relaxed) >> Self.kindShift & 3)
    return SubjectKind(rawValue: raw) ?? .passthrough
  }

  // MARK: Locks

  /// The calling thread's identity, never zero.
  @inlinable @inline(__always)
  static var currentThread: UInt { RecursiveLock.currentThread }

  /// Enters the delivery lock unless the calling thread holds it; returns whether it
  /// entered (pass it to ``exitDelivery(_:tracked:)``).
  @inlinable @inline(__always)
  func enterDelivery(tracked: Bool) -> Bool {
    let me = Self.currentThread
    if deliveryOwner.load(ordering: .relaxed) == me { return false }
    deliveryMutex._unsafeLock()
    if tracked { ThreadSanitizerHooks.didAcquire(address(of: 1)) }
    deliveryOwner.store(me, ordering: .relaxed)
    return true
  }

  /// Leaves the delivery lock if ``enterDelivery(tracked:)`` entered it, then releases
  /// the subscriber if an end came meanwhile (its own try to release found the lock
  /// held).
  @inlinable @inline(__always)
  func exitDelivery(_ entered: Bool, tracked: Bool) {
    guard entered else { return }
    deliveryOwner.store(0, ordering: .relaxed)
    if tracked { ThreadSanitizerHooks.willRelease(address(of: 1)) }
    deliveryMutex._unsafeUnlock()
    // The unlock and this load, against an end's update of `state` and its try of the
    // lock, is Dekker's pattern: each side writes one and reads the other, so at least
    // one side sees the other. The unlock is a locked compare-and-swap on x86, a full
    // barrier; elsewhere a fence makes it one.
    #if !arch(x86_64)
      atomicMemoryFence(ordering: .sequentiallyConsistent)
    #endif
    if Self.isDueForRelease(state.load(ordering: .sequentiallyConsistent)) { releaseIfIdle() }
  }

  /// Runs `body` holding `stateMutex`.
  @inlinable
  func withStateLock<Result>(_ body: () -> Result) -> Result {
    let tracked = state.load(ordering: .relaxed) & Self.tracked != 0
    stateMutex._unsafeLock()
    if tracked { ThreadSanitizerHooks.didAcquire(address(of: 2)) }
    defer {
      if tracked { ThreadSanitizerHooks.willRelease(address(of: 2)) }
      stateMutex._unsafeUnlock()
    }
    return body()
  }

  /// A distinct address per mutex, for the sanitizer's annotations.
  @inlinable @inline(__always)
  func address(of mutex: Int) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) + mutex
  }

  /// Releases the subscriber if it is due (see ``isDueForRelease(_:)``) and no delivery
  /// holds the lock; a delivery that does will release it when it unlocks.
  @usableFromInline
  func releaseIfIdle() {
    // A delivery up this thread's stack holds the lock and still uses the subscriber.
    if deliveryOwner.load(ordering: .relaxed) == Self.currentThread { return }
    let tracked = state.load(ordering: .relaxed) & Self.tracked != 0
    guard deliveryMutex._unsafeTryLock() else { return }
    if tracked { ThreadSanitizerHooks.didAcquire(address(of: 1)) }
    let releases = withStateLock { () -> Bool in
      var word = state.load(ordering: .relaxed)
      while Self.isDueForRelease(word) {
        let (exchanged, original) = state.compareExchange(
          expected: word, desired: word | Self.released, ordering: .acquiringAndReleasing)
        if exchanged { return true }
        word = original
      }
      return false
    }
    if tracked { ThreadSanitizerHooks.willRelease(address(of: 1)) }
    deliveryMutex._unsafeUnlock()
    // Outside the locks: the subscriber's deinit may run, and `released` is ours alone.
    if releases { target.release() }
  }

  // MARK: Subscriber access

  // The two ways into the subscriber behind a reference. Spelled out rather than one
  // helper taking a closure: measured, the closure version cost each value about 10%.
  // A reference cast forwards the reference it is given; `unsafeBitCast` would make a
  // copy, whose retain and release cost as much as the rest of a delivery.

  /// Delivers `value` to the subscriber behind `reference`, boxed or not (``boxed``).
  @inlinable @inline(__always)
  static func send(_ value: Output, to reference: AnyObject, word: UInt) -> Subscribers.Demand {
    if word & boxed == 0 {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(value)
    }
    return unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).receive(value)
  }

  /// Delivers `completion` to the subscriber behind `reference`, boxed or not.
  @inlinable @inline(__always)
  static func send(
    _ completion: Subscribers.Completion<Failure>, to reference: AnyObject, word: UInt
  ) {
    if word & boxed == 0 {
      return _unsafeReferenceCast(reference, to: Downstream.self).receive(completion: completion)
    }
    unsafeDowncast(reference, to: SubscriberBox<Downstream>.self).receive(completion: completion)
  }

  /// The subscriber, retained, unless it was released.
  @usableFromInline
  var downstream: AnyObject? {
    withStateLock {
      state.load(ordering: .acquiring) & Self.released == 0 ? target.takeUnretainedValue() : nil
    }
  }

  // MARK: Events

  @inlinable
  func offerValue(_ value: Output) {
    let word = state.load(ordering: .relaxed)
    // The common case, unlimited demand: nothing to count, the lock is all there is.
    if word & (Self.ended | Self.owesValue) == 0, Self.demandCount(word) == Self.unlimited {
      return deliver(value, word: word)
    }
    if takeDemand(word) { deliver(value, word: word) }
  }

  /// Takes one unit of demand for a value; returns whether there was one. A value of a
  /// current-value subject that finds none is owed to the next request.
  @usableFromInline
  func takeDemand(_ word: UInt) -> Bool {
    var word = word
    while true {
      if word & (Self.ended | Self.owesValue) != 0 { return false }
      let count = Self.demandCount(word)
      if count == Self.unlimited { return true }
      let desired =
        count == 0
        ? (Self.owesValueOnMiss(kind: word) ? word | Self.owesValue : word)
        : Self.word(word, demand: count - 1)
      if desired == word { return false }
      let (exchanged, original) = state.compareExchange(
        expected: word, desired: desired, ordering: .relaxed)
      if exchanged { return count != 0 }
      word = original
    }
  }

  /// Whether a subject of the kind in `word` keeps a current value (then a value that
  /// finds no demand is owed to the next request).
  @inlinable @inline(__always)
  static func owesValueOnMiss(kind word: UInt) -> Bool {
    word >> kindShift & 3 != UInt(SubjectKind.passthrough.rawValue)
  }

  /// Delivers a value whose demand the caller took, unless the conduit has ended.
  @inlinable
  func deliver(_ value: Output, word: UInt) {
    let tracked = word & Self.tracked != 0
    let entered = enterDelivery(tracked: tracked)
    // Under the lock the subscriber cannot be released; it may have been before.
    let more: Subscribers.Demand
    if state.load(ordering: .acquiring) & Self.ended == 0 {
      more = target._withUnsafeGuaranteedRef { Self.send(value, to: $0, word: word) }
    } else {
      more = .none
    }
    exitDelivery(entered, tracked: tracked)
    if more > 0 { addDemand(more) }
  }

  /// Adds demand a delivery returned, unless the conduit has ended.
  @inlinable
  func addDemand(_ more: Subscribers.Demand) {
    var word = state.load(ordering: .relaxed)
    while word & Self.ended == 0 {
      let desired = Self.word(word, demand: Self.adding(more, to: Self.demandCount(word)))
      // Unlimited stays unlimited: no write (a filter returns demand for each value it drops).
      if desired == word { return }
      let (exchanged, original) = state.compareExchange(
        expected: word, desired: desired, ordering: .relaxed)
      if exchanged { return }
      word = original
    }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    // End, taking the subject out; the subscriber stays until the completion is out.
    let word = withStateLock { () -> UInt? in
      var word = state.load(ordering: .relaxed)
      while word & Self.ended == 0 {
        let (exchanged, original) = state.compareExchange(
          expected: word, desired: word | Self.ended | Self.completing,
          ordering: .acquiringAndReleasing)
        if exchanged {
          parent = nil
          return word
        }
        word = original
      }
      return nil
    }
    guard let word else { return }
    let tracked = word & Self.tracked != 0
    let entered = enterDelivery(tracked: tracked)
    target._withUnsafeGuaranteedRef { Self.send(completion, to: $0, word: word) }
    // Still inside the lock, so that releasing waits for this delivery's unlock.
    state.bitwiseAnd(~Self.completing, ordering: .sequentiallyConsistent)
    exitDelivery(entered, tracked: tracked)
    // Entered by an outer delivery on this thread: that one releases when it unlocks.
  }

  @inlinable
  func requestDemand(_ demand: Subscribers.Demand) {
    // The subject is taken out of the lock only when it has something to do: a retain
    // and release of it on every request cost `sink` + `cancel` about 7%.
    let taken = withStateLock { () -> (parent: Parent, owed: UInt?)? in
      guard let parent else { return nil }
      var word = state.load(ordering: .relaxed)
      while word & Self.ended == 0 {
        // An owed value takes one unit of the demand in the same step.
        let owed = word & Self.owesValue != 0
        let count = Self.adding(owed ? demand - 1 : demand, to: Self.demandCount(word))
        let desired = Self.word(owed ? word & ~Self.owesValue : word, demand: count)
        let (exchanged, original) = state.compareExchange(
          expected: word, desired: desired, ordering: .acquiringAndReleasing)
        if exchanged {
          return owed || !parent.hasSeenDownstreamDemand ? (parent, owed ? word : nil) : nil
        }
        word = original
      }
      return nil
    }
    guard let (subject, owed) = taken else { return }
    subject.acknowledgeDownstreamDemand()
    if let owed, let value = subject.initialValue() { deliver(value, word: owed) }
  }

  @inlinable
  func cancelConduit() {
    let subject = withStateLock { () -> Parent? in
      var word = state.load(ordering: .relaxed)
      while word & Self.ended == 0 {
        let (exchanged, original) = state.compareExchange(
          expected: word, desired: word | Self.ended, ordering: .sequentiallyConsistent)
        if exchanged {
          defer { parent = nil }
          return parent
        }
        word = original
      }
      return nil
    }
    guard let subject else { return }
    // Released now unless a delivery holds the lock (it releases when it unlocks).
    releaseIfIdle()
    subject.remove(self)
  }

  @inlinable
  override var isLive: Bool { state.load(ordering: .acquiring) & Self.ended == 0 }

  @usableFromInline
  override var description: String {
    kind.name
  }

  /// Combine's children: the subject (as parent and as subject), the subscriber and the
  /// outstanding demand.
  @usableFromInline
  override var customMirror: Mirror {
    let parent = withStateLock { self.parent }
    let downstream = self.downstream
    let count = Self.demandCount(state.load(ordering: .relaxed))
    let demand: Subscribers.Demand = count == Self.unlimited ? .unlimited : .max(Int(count))
    let subscriber: Any? = (downstream as? SubscriberBox<Downstream>)?.subscriber ?? downstream
    return Mirror(
      self,
      children: [
        "parent": parent as Any, "downstream": subscriber as Any, "demand": demand,
        "subject": parent as Any,
      ], ancestorRepresentation: .suppressed)
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

extension SubscriberBox where Subscriber: ReactiveCore.Subscriber {
  // Calls through methods of the box, so that the subscriber is borrowed in place:
  // reading it out of the box first copied it, a retain and release per closure it holds.

  /// Delivers a value to the boxed subscriber.
  @inlinable @inline(__always)
  func receive(_ value: Subscriber.Input) -> Subscribers.Demand { subscriber.receive(value) }

  /// Delivers a completion to the boxed subscriber.
  @inlinable @inline(__always)
  func receive(completion: Subscribers.Completion<Subscriber.Failure>) {
    subscriber.receive(completion: completion)
  }
}
