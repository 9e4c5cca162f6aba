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
    // Decided where the output type is known, so it folds away: a value of an empty type
    // has no address worth passing (it may come out null).
    if MemoryLayout<Output>.size == 0 { return entry(self, .emptyValue) }
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
  /// A value to offer, by address.
  case value(UnsafeRawPointer)
  /// The one value of an empty type (`Void`, as `objectWillChange` sends), whose address
  /// is arbitrary and may come out null.
  case emptyValue
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
  /// What a conduit's mirror shows as its parent and subject (Combine shows the subject
  /// by name).
  var reflectedParent: Any { get }
}
