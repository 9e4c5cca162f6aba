/// A publisher that publishes changes from observable objects.
///
/// It sends `()` before any `@Published` property of its object changes.
///
/// As Combine's, it is a signal rather than a stream of values: a subscriber receives
/// every `send()` from its first request on, whatever demand it asked for, until it
/// cancels.
///
/// - Note: Thread-safe: `send()` may be called from any thread; deliveries to one
///   subscriber never overlap.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  /// The kind of values published by this publisher.
  public typealias Output = Void
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  /// The subscribers' connections, behind their lock: a box, since a public class cannot
  /// subclass the internal `Guarded`; one allocation per publisher.
  private let connections = LockedBox<[WillChangeConnection]>([])

  /// Creates an observable object publisher instance.
  public init() {}

  /// Attaches the subscriber.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    let connection = WillChangeSubscription(parent: self, downstream: subscriber)
    connections.withLock { $0.append(connection) }
    subscriber.receive(subscription: connection)
  }

  /// Sends the changed value to the downstream subscriber.
  public func send() {
    for connection in connections.withLock({ $0 }) { connection.signal() }
  }

  /// Forgets a cancelled connection.
  fileprivate func remove(_ connection: WillChangeConnection) {
    connections.withLock { $0.removeAll { $0 === connection } }
  }
}

/// Where a connection stands: inactive until its first request, then every signal
/// reaches the subscriber, until a cancel.
private enum WillChangePhase {
  case awaitingDemand
  case active
  case cancelled
}

/// The state of a connection; guarded by its lock.
private struct WillChangeState {
  /// Where the connection stands.
  var phase = WillChangePhase.awaitingDemand
  /// Strong until the cancel, as a subject's subscriptions hold their subject: the
  /// publisher holds its connections, and a cancel breaks that cycle. (Not weak: a weak
  /// reference gives the publisher a side table, which LeakSanitizer cannot see the
  /// publisher point to, so a publisher kept for the life of the process reads as a leak.)
  var parent: ObservableObjectPublisher?
}

/// One subscriber's connection to an ``ObservableObjectPublisher``, type-erased so that
/// the publisher keeps one list; its lock guards the connection's state.
private class WillChangeConnection: Guarded<WillChangeState>, @unchecked Sendable {
  func signal() { fatalError("abstract") }
}

/// A subscription to an ``ObservableObjectPublisher``: inactive until its first request,
/// then every signal reaches the subscriber, until a cancel.
///
/// - Note: Thread-safe. The lock guards the phase and `parent`; `deliveryLock` keeps
///   deliveries from overlapping (and lets a subscriber send from inside one).
private final class WillChangeSubscription<Downstream: Subscriber>: WillChangeConnection,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Void, Downstream.Failure == Never {
  private let deliveryLock = RecursiveLock()
  private let downstream: Downstream

  init(parent: ObservableObjectPublisher, downstream: Downstream) {
    self.downstream = downstream
    super.init(state: WillChangeState(parent: parent))
  }

  override func signal() {
    guard withLock({ $0.phase == .active }) else { return }
    deliveryLock.withLock { _ = downstream.receive(()) }
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { state in if state.phase == .awaitingDemand { state.phase = .active } }
  }

  func cancel() {
    let parent = withLock { state -> ObservableObjectPublisher? in
      state.phase = .cancelled
      return state.parent.take()
    }
    parent?.remove(self)
  }

  var description: String { "ObservableObjectPublisher" }
  var customMirror: Mirror {
    Mirror(self, children: [("downstream", downstream)], ancestorRepresentation: .suppressed)
  }
  var playgroundDescription: Any { description }
}

/// A type of object with a publisher that emits before the object has changed.
///
/// By default an `ObservableObject` synthesizes an ``objectWillChange`` publisher that
/// emits the changed value before any of its `@Published` properties changes.
///
///     final class Contact: ObservableObject {
///         @Published var age = 21
///     }
///     let john = Contact()
///     let cancellable = john.objectWillChange.sink { print("\(john.age) will change") }
///     john.age += 1
///     // Prints "21 will change"
public protocol ObservableObject: AnyObject {
  /// The type of publisher that emits before the object has changed.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never

  /// A publisher that emits before the object has changed.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// A publisher that emits before the object has changed.
  ///
  /// The first access creates the publisher and hands it to every `@Published` property
  /// of the object (found by reflection, superclasses included); later accesses return
  /// the same publisher.
  public var objectWillChange: ObservableObjectPublisher {
    var boxes: [any PublishedStorage] = []
    var mirror: Mirror? = Mirror(reflecting: self)
    while let current = mirror {
      for child in current.children {
        if let holder = child.value as? any PublishedStorageHolder { boxes.append(holder.storage) }
      }
      mirror = current.superclassMirror
    }
    let candidate = ObservableObjectPublisher()
    var chosen: ObservableObjectPublisher?
    for box in boxes {
      let installed = box.installWillChange(chosen ?? candidate)
      if chosen == nil { chosen = installed }
    }
    return chosen ?? ObjectWillChangeTable.publisher(for: self)
  }
}

/// Objects without `@Published` properties still need one stable publisher each; this
/// keeps it alive exactly as long as the object.
enum ObjectWillChangeTable {
  private static let key = LockedBox<[ObjectIdentifier: Entry]>([:])

  private struct Entry {
    weak var object: AnyObject?
    let publisher: ObservableObjectPublisher
  }

  static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
    key.withLock { table in
      let id = ObjectIdentifier(object)
      if let entry = table[id], entry.object === object { return entry.publisher }
      table = table.filter { $0.value.object != nil }
      let publisher = ObservableObjectPublisher()
      table[id] = Entry(object: object, publisher: publisher)
      return publisher
    }
  }
}
