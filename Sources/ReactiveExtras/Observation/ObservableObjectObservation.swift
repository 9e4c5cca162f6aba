import Observation
import ReactiveCore

/// Makes a Combine-style `ObservableObject` observable by Observation-based code: reading
/// ``object`` through this holder registers with `withObservationTracking` (and SwiftUI-
/// or SwiftCrossUI-style views that use it), and every `objectWillChange` of the object
/// reports a change of ``object``.
///
///     final class Settings: ObservableObject { @Published var volume = 5 }
///     let settings = ObservableObjectObservation(Settings())
///     withObservationTracking { _ = settings.object.volume } onChange: { print("changed") }
///     settings.object.volume = 6
///     // Prints "changed"
///
/// Swift cannot make an `ObservableObject` itself conform to `Observable` after the fact;
/// this holder is the bridge the language allows.
///
/// - Note: The holder is `Sendable` (its own state never changes after `init`, and
///   Observation's registrar is thread-safe), so that Observation code on any thread can
///   track it. It hands ``object`` to whichever thread reads it, whatever the object's
///   own type: an object that is not thread-safe must still be read and changed on one
///   thread at a time, as without the holder.
public final class ObservableObjectObservation<Object: ObservableObject>: Observable,
  @unchecked Sendable
where Object.ObjectWillChangePublisher.Failure == Never {
  private let registrar = ObservationRegistrar()
  private let storedObject: Object
  private var subscription: AnyCancellable?

  /// The observed object; reading it registers with Observation tracking.
  public var object: Object {
    registrar.access(self, keyPath: \.object)
    return storedObject
  }

  /// Creates the bridge for `object`.
  ///
  /// - Parameter object: The object whose changes Observation-based code should see.
  public init(_ object: Object) {
    storedObject = object
    subscription = object.objectWillChange.sink { [weak self] _ in
      guard let self else { return }
      // `objectWillChange` comes before the change, as Observation's `willSet` does.
      registrar.willSet(self, keyPath: \.object)
      registrar.didSet(self, keyPath: \.object)
    }
  }
}
