/// A publisher that publishes changes from observable objects.
///
/// It sends `()` before any `@Published` property of its object changes.
///
/// - Note: Thread-safe, like ``PassthroughSubject``.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  /// The kind of values published by this publisher.
  public typealias Output = Void
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  private let subject = PassthroughSubject<Void, Never>(kind: .observableObject)

  /// Creates an observable object publisher instance.
  public init() {}

  /// Attaches the subscriber.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    subject.subscribe(subscriber)
  }

  /// Sends the changed value to the downstream subscriber.
  public func send() { subject.send(()) }
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
