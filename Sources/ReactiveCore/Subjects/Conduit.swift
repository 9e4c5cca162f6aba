import Synchronization

/// The concrete conduit: one subscriber's demand and delivery.
///
/// A value takes one lock, the delivery lock that keeps two threads from calling the
/// subscriber at once (it is recursive: the subscriber may send again from inside), and
/// no other atomic read-modify-write when the demand is unlimited. The rest is one atomic
/// word, ``state``, a ``ConduitWord`` whose pure transitions hold the rules (the demand,
/// whether a current value is owed, whether the conduit has ended, is delivering its
/// completion, or has released its subscriber); the conduit applies them with
/// compare-and-swap. The subscriber is reached unretained; holding the delivery lock
/// keeps it alive.
///
/// The conduit is most of what a live subscription costs, so its fields are packed into
/// 72 bytes (one malloc size class below Combine-shaped field-per-fact layouts): the two
/// mutexes are bare, and whether to annotate them for the thread sanitizer is a bit of
/// `state` rather than a field of each.
///
/// Not on ``Lifecycle``, the one lifecycle of the engines, by design: a conduit's life is
/// bits of ``ConduitWord`` so that a value reads it with one atomic load and no lock. A
/// `Guarded<Lifecycle<…>>` would add a third lock and a 41-byte status to its 72 bytes
/// (malloc's 128-byte chunk instead of its 80-byte one, for every live subscription) and
/// a lock and unlock per value, which `subject_sink` (171 instructions per value) does not
/// pay today.
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
  let deliveryMutex = RawMutex()
  /// Guards `parent`; see the type's invariant.
  @usableFromInline
  let stateMutex = RawMutex()
  /// Everything else, in one word: a ``ConduitWord``'s bits.
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
      ConduitWord(
        owesValue: needsInitialValue, boxed: !isClass, tracked: ThreadSanitizerHooks.isActive,
        kind: parent.kind
      ).raw)
    super.init { conduit, event in
      let conduit = unsafeDowncast(conduit, to: Conduit.self)
      switch event {
      case .value(let value):
        conduit.offerValue(value.assumingMemoryBound(to: Output.self).pointee)
      case .emptyValue:
        // Any value of an empty type is the value.
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
    if !load(.acquiring).isReleased { target.release() }
  }

  // MARK: The state word

  /// The memory orderings the conduit uses on its state word. (The standard library's
  /// orderings must be spelled at each atomic call; this enum, switched on in inlined
  /// code with a constant, folds to the one it names.)
  @usableFromInline
  enum WordOrdering {
    case relaxed, acquiring, acquiringAndReleasing, sequentiallyConsistent
  }

  /// The state word, as its value type.
  @inlinable @inline(__always)
  func load(_ ordering: WordOrdering) -> ConduitWord {
    switch ordering {
    case .relaxed: ConduitWord(raw: state.load(ordering: .relaxed))
    case .acquiring, .acquiringAndReleasing: ConduitWord(raw: state.load(ordering: .acquiring))
    case .sequentiallyConsistent: ConduitWord(raw: state.load(ordering: .sequentiallyConsistent))
    }
  }

  /// Replaces `expected` with `desired` if the word is still `expected`; returns the word
  /// found otherwise.
  @inlinable @inline(__always)
  func exchange(
    _ expected: ConduitWord, for desired: ConduitWord, ordering: WordOrdering
  ) -> ConduitWord? {
    let (exchanged, original) =
      switch ordering {
      case .relaxed:
        state.compareExchange(expected: expected.raw, desired: desired.raw, ordering: .relaxed)
      case .acquiring:
        state.compareExchange(expected: expected.raw, desired: desired.raw, ordering: .acquiring)
      case .acquiringAndReleasing:
        state.compareExchange(
          expected: expected.raw, desired: desired.raw, ordering: .acquiringAndReleasing)
      case .sequentiallyConsistent:
        state.compareExchange(
          expected: expected.raw, desired: desired.raw, ordering: .sequentiallyConsistent)
      }
    return exchanged ? nil : ConduitWord(raw: original)
  }

  /// The subject's kind; the conduit names its subject by it, also after it has ended
  /// and let go of the subject.
  @inlinable
  var kind: SubjectKind { load(.relaxed).kind }

  // MARK: Locks

  /// Enters the delivery lock unless the calling thread holds it; returns whether it
  /// entered (pass it to ``exitDelivery(_:tracked:)``).
  @inlinable @inline(__always)
  func enterDelivery(tracked: Bool) -> Bool {
    let me = LockOwner.currentThread
    if deliveryOwner.load(ordering: .relaxed) == me { return false }
    deliveryMutex.lock()
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
    deliveryMutex.unlock()
    // The unlock and this load, against an end's update of `state` and its try of the
    // lock, is Dekker's pattern: each side writes one and reads the other, so at least
    // one side sees the other. The unlock is a locked compare-and-swap on x86, a full
    // barrier; elsewhere a fence makes it one.
    #if !arch(x86_64)
      atomicMemoryFence(ordering: .sequentiallyConsistent)
    #endif
    if load(.sequentiallyConsistent).isDueForRelease { releaseIfIdle() }
  }

  /// Runs `body` holding `stateMutex`.
  @inlinable
  func withStateLock<Result>(_ body: () -> Result) -> Result {
    let tracked = load(.relaxed).isTracked
    stateMutex.lock()
    if tracked { ThreadSanitizerHooks.didAcquire(address(of: 2)) }
    defer {
      if tracked { ThreadSanitizerHooks.willRelease(address(of: 2)) }
      stateMutex.unlock()
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
    if deliveryOwner.load(ordering: .relaxed) == LockOwner.currentThread { return }
    let tracked = load(.relaxed).isTracked
    guard deliveryMutex.tryLock() else { return }
    if tracked { ThreadSanitizerHooks.didAcquire(address(of: 1)) }
    let releases = withStateLock { () -> Bool in
      var word = load(.relaxed)
      while let released = word.releasing() {
        guard let found = exchange(word, for: released, ordering: .acquiringAndReleasing) else {
          return true
        }
        word = found
      }
      return false
    }
    if tracked { ThreadSanitizerHooks.willRelease(address(of: 1)) }
    deliveryMutex.unlock()
    // Outside the locks: the subscriber's deinit may run, and `released` is ours alone.
    if releases { target.release() }
  }

  // MARK: Events

  @inlinable
  func offerValue(_ value: Output) {
    let word = load(.relaxed)
    // The common case, unlimited demand: nothing to count, the lock is all there is.
    if word.deliversWithoutCounting { return deliver(value, word: word) }
    if takeDemand(word) { deliver(value, word: word) }
  }

  /// Takes one unit of demand for a value (``ConduitWord/offeringValue()``); returns
  /// whether there was one.
  @usableFromInline
  func takeDemand(_ word: ConduitWord) -> Bool {
    var word = word
    while true {
      let (next, delivers) = word.offeringValue()
      if next == word { return delivers }
      guard let found = exchange(word, for: next, ordering: .relaxed) else { return delivers }
      word = found
    }
  }

  /// Delivers a value whose demand the caller took, unless the conduit has ended.
  @inlinable
  func deliver(_ value: Output, word: ConduitWord) {
    let tracked = word.isTracked
    let entered = enterDelivery(tracked: tracked)
    // Under the lock the subscriber cannot be released; it may have been before.
    let more: Subscribers.Demand
    if !load(.acquiring).isEnded {
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
    var word = load(.relaxed)
    while true {
      let next = word.returningDemand(more)
      // Unlimited stays unlimited: no write (a filter returns demand for each value it drops).
      if next == word { return }
      guard let found = exchange(word, for: next, ordering: .relaxed) else { return }
      word = found
    }
  }

  @usableFromInline
  override func finish(_ completion: Subscribers.Completion<Failure>) {
    // End, taking the subject out; the subscriber stays until the completion is out.
    let word = withStateLock { () -> ConduitWord? in
      var word = load(.relaxed)
      while let finished = word.finishing() {
        guard let found = exchange(word, for: finished, ordering: .acquiringAndReleasing) else {
          parent = nil
          return word
        }
        word = found
      }
      return nil
    }
    guard let word else { return }
    let tracked = word.isTracked
    let entered = enterDelivery(tracked: tracked)
    target._withUnsafeGuaranteedRef { Self.send(completion, to: $0, word: word) }
    // Still inside the lock, so that releasing waits for this delivery's unlock. (One
    // atomic and, rather than a compare-and-swap loop over `completionDelivered()`: the
    // demand bits may change meanwhile, and nothing else touches `completing`.)
    state.bitwiseAnd(~ConduitWord.completingBit, ordering: .sequentiallyConsistent)
    exitDelivery(entered, tracked: tracked)
    // Entered by an outer delivery on this thread: that one releases when it unlocks.
  }

  @inlinable
  func requestDemand(_ demand: Subscribers.Demand) {
    // The subject is taken out of the lock only when it has something to do: a retain
    // and release of it on every request cost `sink` + `cancel` about 7%.
    let taken = withStateLock { () -> (parent: Parent, owed: ConduitWord?)? in
      guard let parent else { return nil }
      var word = load(.relaxed)
      // An owed value takes one unit of the demand in the same step.
      while let (next, owed) = word.requesting(demand) {
        guard let found = exchange(word, for: next, ordering: .acquiringAndReleasing) else {
          return owed || !parent.hasSeenDownstreamDemand ? (parent, owed ? word : nil) : nil
        }
        word = found
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
      var word = load(.relaxed)
      while let cancelled = word.cancelling() {
        guard let found = exchange(word, for: cancelled, ordering: .sequentiallyConsistent) else {
          defer { parent = nil }
          return parent
        }
        word = found
      }
      return nil
    }
    guard let subject else { return }
    // Released now unless a delivery holds the lock (it releases when it unlocks).
    releaseIfIdle()
    subject.remove(self)
  }

  @inlinable
  override var isLive: Bool { !load(.acquiring).isEnded }

  @usableFromInline
  override var description: String {
    kind.name
  }

  /// Combine's children: the subject (as parent and as subject), the subscriber and the
  /// outstanding demand.
  @usableFromInline
  override var customMirror: Mirror {
    let parent = withStateLock { self.parent?.reflectedParent }
    let downstream = self.downstream
    let demand = load(.relaxed).demand
    let subscriber: Any? = (downstream as? SubscriberBox<Downstream>)?.subscriber ?? downstream
    return Mirror(
      self,
      children: [
        "parent": parent as Any, "downstream": subscriber as Any, "demand": demand,
        "subject": parent as Any,
      ], ancestorRepresentation: .suppressed)
  }
}
