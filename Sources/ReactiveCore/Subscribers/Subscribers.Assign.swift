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

    /// The lock that guards `status` and `storedObject`.
    private let lock = Lock()
    @exclusivity(unchecked)
    private var status = SubscriptionStatus.awaitingSubscription
    @exclusivity(unchecked)
    private var storedObject: Root?

    /// The object that contains the property to assign; `nil` once the subscriber ended.
    public var object: Root? { lock.withLock { storedObject } }

    /// The key path that indicates the property to assign.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber to assign the value of a property indicated by a key path.
    ///
    /// - Parameters:
    ///   - object: The object that contains the property.
    ///   - keyPath: A key path that indicates the property to assign.
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      storedObject = object
      self.keyPath = keyPath
    }

    /// Takes the subscription and requests unlimited values; a second one is cancelled.
    public func receive(subscription: any Subscription) {
      let accepted = lock.withLock { () -> Bool in
        guard case .awaitingSubscription = status else { return false }
        status = .subscribed(subscription)
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    /// Assigns the value to the property.
    public func receive(_ value: Input) -> Subscribers.Demand {
      let target = lock.withLock { () -> Root? in
        guard case .subscribed = status else { return nil }
        return storedObject
      }
      target?[keyPath: keyPath] = value
      return .none
    }

    /// Releases the object.
    public func receive(completion: Subscribers.Completion<Never>) {
      let released = lock.withLock { () -> Root? in
        guard case .subscribed = status else { return nil }
        status = .terminal
        defer { storedObject = nil }
        return storedObject
      }
      _ = released
    }

    /// Cancels the subscription and releases the object.
    public func cancel() {
      let taken = lock.withLock { () -> ((any Subscription)?, Root?) in
        defer {
          status = .terminal
          storedObject = nil
        }
        return (status.subscription, storedObject)
      }
      taken.0?.cancel()
    }

    /// `"Assign \(Root.self)."`, as in Combine.
    public var description: String { "Assign \(Root.self)." }

    /// A mirror showing the object, the key path and the subscription status, as
    /// Combine's.
    public var customMirror: Mirror {
      let (object, status) = lock.withLock { (storedObject, self.status) }
      return Mirror(
        self, children: ["object": object as Any, "keyPath": keyPath, "status": status])
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
