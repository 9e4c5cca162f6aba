extension Subscribers {
  /// A simple subscriber that assigns received elements to a property indicated by a key
  /// path.
  ///
  /// The object is held strongly until the subscription completes or is cancelled.
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    /// The kind of errors this subscriber might receive.
    public typealias Failure = Never

    /// Where the subscriber stands with its subscription, carrying the object until it
    /// ends; behind its lock (a public class cannot inherit the internal `Guarded`).
    private let state: LockedBox<Lifecycle<Root?>>

    /// The object that contains the property to assign; `nil` once the subscriber ended.
    public var object: Root? { state.withLock { $0.machine } }

    /// The key path that indicates the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber to assign the value of a property indicated by a key path.
    ///
    /// - Parameters:
    ///   - object: The object that contains the property.
    ///   - keyPath: A key path that indicates the property to assign.
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      state = LockedBox(Lifecycle(object))
      self.keyPath = keyPath
    }

    /// Takes the subscription and requests unlimited values; a second one is cancelled.
    public func receive(subscription: any Subscription) {
      let accepted = state.withLock { $0.adopt(subscription) }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Assigns the value to the property.
    public func receive(_ value: Input) -> Subscribers.Demand {
      let target = state.withLock { state -> Root? in
        guard state.isSubscribed else { return nil }
        return state.machine
      }
      target?[keyPath: keyPath] = value
      return .none
    }

    /// Releases the object; a completion before the subscription is ignored, as in
    /// Combine.
    public func receive(completion: Subscribers.Completion<Never>) {
      let ended = state.withLock { state -> Root? in
        guard state.terminate() != nil else { return nil }
        defer { state.machine = nil }
        return state.machine
      }
      // Dropped after unlocking: the object's deinit may run any code.
      withExtendedLifetime(ended) {}
    }

    /// Cancels the subscription and releases the object.
    ///
    /// As in Combine, a cancel before the subscription arrives does nothing: the object
    /// stays, and a subscription that comes later is taken.
    public func cancel() {
      let (upstream, object) = state.withLock { state -> ((any Subscription)?, Root?) in
        guard state.holdsSubscription else { return (nil, nil) }
        defer { state.machine = nil }
        return (state.end(), state.machine)
      }
      upstream?.cancel()
      // The object goes after unlocking: its deinit may run any code.
      withExtendedLifetime(object) {}
    }

    /// `"Assign \(Root.self)."`, as in Combine.
    public var description: String { "Assign \(Root.self)." }

    /// A mirror showing the object, the key path and the subscription status, as
    /// Combine's.
    public var customMirror: Mirror {
      let current = state.withLock { $0 }
      return Mirror(
        self,
        children: ["object": current.machine as Any, "keyPath": keyPath, "status": current.status],
        ancestorRepresentation: .suppressed)
    }

    /// The same as ``description``.
    public var playgroundDescription: Any { description }
  }
}

extension Publisher where Failure == Never {
  /// Assigns each element from a publisher to a property on an object.
  ///
  ///     let cancellable = [1, 2].publisher.assign(to: \.count, on: model)
  ///
  /// - Parameters:
  ///   - keyPath: A key path that indicates the property to assign.
  ///   - object: The object that contains the property. It is held strongly until the
  ///     subscription completes or is cancelled.
  /// - Returns: An ``AnyCancellable`` instance.
  public func assign<Root>(
    to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
  ) -> AnyCancellable {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(object: subscriber)
  }
}
