/// A type that publishes a property marked with an attribute.
///
/// Publishing a property with `@Published` creates a publisher of this type, reached
/// with the `$` operator. It emits the current value on subscription, then each new
/// value before the property changes (in `willSet`), as in Combine. In a class that is
/// an ``ObservableObject``, a change also fires `objectWillChange` first.
///
///     final class Weather {
///         @Published var temperature: Double = 20
///     }
///     let weather = Weather()
///     let cancellable = weather.$temperature.sink { print($0) }
///     weather.temperature = 25
///     // Prints "20.0", "25.0"
///
/// - Note: Thread-safe: reads, writes and subscriptions may come from any thread.
@propertyWrapper
public struct Published<Value> {
  @usableFromInline
  let box: PublishedBox<Value>

  /// Creates the published instance with an initial wrapped value.
  ///
  /// - Parameter wrappedValue: The publisher's initial value.
  public init(wrappedValue: Value) { box = PublishedBox(wrappedValue) }

  /// Creates the published instance with an initial value.
  ///
  /// - Parameter initialValue: The publisher's initial value.
  public init(initialValue: Value) { self.init(wrappedValue: initialValue) }

  /// `@Published` is only available on properties of classes.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Published is only available on properties of classes") }
    set { fatalError("@Published is only available on properties of classes") }
  }

  /// The property for which this instance exposes a publisher.
  public var projectedValue: Publisher {
    get { Publisher(box: box) }
    set {}  // Combine allows `assign(to: &$value)`, which needs a settable projection.
  }

  /// Reads and writes the value through the enclosing instance.
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].box.value }
    set { object[keyPath: storageKeyPath].box.set(newValue) }
  }

  /// A publisher for properties marked with the `@Published` attribute.
  public struct Publisher: ReactiveCore.Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Value
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    let box: PublishedBox<Value>

    /// Attaches the subscriber: it receives the current value, then each new value.
    public func receive<S: Subscriber>(subscriber: S) where Value == S.Input, S.Failure == Never {
      box.subject.subscribe(subscriber)
    }
  }
}

extension Published: @unchecked Sendable where Value: Sendable {}

/// The shared storage of one `@Published` property.
@usableFromInline
final class PublishedBox<Value>: Guarded<PublishedBox<Value>.State>, PublishedStorage,
  @unchecked Sendable
{
  /// What the property holds besides its subject; guarded by the lock.
  @usableFromInline
  struct State {
    /// The property's value, which changes after subscribers hear of the new one.
    var storedValue: Value
    /// The object's `objectWillChange` publisher, once installed.
    var willChange: ObservableObjectPublisher?
    /// The subscription of the last `assign(to:)` to this property.
    var assignment: AnyCancellable?
  }

  /// Holds the latest value for new subscribers; the property itself changes after
  /// subscribers hear of the new value, as Combine's `willSet` does.
  let subject: CurrentValueSubject<Value, Never>

  init(_ value: Value) {
    subject = CurrentValueSubject(value, kind: .published)
    super.init(state: State(storedValue: value))
  }

  var value: Value { withLock { $0.storedValue } }

  func set(_ newValue: Value) {
    withLock { $0.willChange }?.send()
    subject.send(newValue)
    withLock { $0.storedValue = newValue }
  }

  func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
    withLock { state in
      if let willChange = state.willChange { return willChange }
      state.willChange = publisher
      return publisher
    }
  }

  func keep(_ cancellable: AnyCancellable) {
    let previous = withLock { state -> AnyCancellable? in
      defer { state.assignment = cancellable }
      return state.assignment
    }
    previous?.cancel()
  }
}

/// Lets `objectWillChange` find `@Published` storage by reflection, whatever its value type.
protocol PublishedStorage: AnyObject {
  func installWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
}

extension Published: PublishedStorageHolder {
  var storage: any PublishedStorage { box }
}

/// Reflection sees the `Published` struct; this reaches the box inside it.
protocol PublishedStorageHolder {
  var storage: any PublishedStorage { get }
}

extension Publisher where Failure == Never {
  /// Republishes elements received from a publisher, by assigning them to a property
  /// marked as a publisher.
  ///
  /// The subscription lives as long as the property's object; a later `assign(to:)` to
  /// the same property replaces it.
  ///
  ///     final class Clock { @Published var now = 0 }
  ///     let clock = Clock()
  ///     ticks.assign(to: &clock.$now)
  ///
  /// - Parameter published: A property marked with the `@Published` attribute, which
  ///   receives and republishes all elements received from the upstream publisher.
  public func assign(to published: inout Published<Output>.Publisher) {
    let box = published.box
    let cancellable = sink { [weak box] in box?.set($0) }
    box.keep(cancellable)
  }
}
