import Foundation

extension NotificationCenter {
  /// Returns a publisher that emits events when broadcasting notifications.
  ///
  ///     let name = Notification.Name("Refreshed")
  ///     let cancellable = NotificationCenter.default.publisher(for: name)
  ///         .sink { print($0.name.rawValue) }
  ///     NotificationCenter.default.post(name: name, object: nil)
  ///     // Prints "Refreshed"
  ///
  /// - Parameters:
  ///   - name: The name of the notification to publish.
  ///   - object: The object posting the named notification. If `nil`, the publisher
  ///     emits elements for any object producing a notification with the given name.
  /// - Returns: A publisher that emits events when broadcasting notifications.
  public func publisher(
    for name: Notification.Name, object: AnyObject? = nil
  ) -> NotificationCenter.Publisher {
    Publisher(center: self, name: name, object: object)
  }

  /// A publisher that emits elements when broadcasting notifications.
  ///
  /// Each subscription registers its own observer, delivers a notification only when the
  /// subscriber has demand (others are dropped), and removes the observer on cancel.
  public struct Publisher: ReactiveCore.Publisher {
    /// The kind of values published by this publisher: the posted notification.
    public typealias Output = Notification
    /// The kind of errors this publisher might publish: none.
    public typealias Failure = Never

    /// The notification center this publisher uses as a source.
    public let center: NotificationCenter
    /// The name of notifications published by this publisher.
    public let name: Notification.Name
    /// The object posting the named notification; `nil` means any object.
    public let object: AnyObject?

    /// Creates a publisher that emits events when broadcasting notifications.
    ///
    /// - Parameters:
    ///   - center: The notification center to publish notifications for.
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification; `nil` means any object.
    public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
      self.center = center
      self.name = name
      self.object = object
    }

    /// Attaches the subscriber and registers an observer for it.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Notification, S.Failure == Never {
      let subscription = NotificationSubscription(downstream: subscriber, center: center)
      subscriber.receive(subscription: subscription)
      subscription.observe(name: name, object: object)
    }
  }
}

/// One subscriber's observer on a notification center.
///
/// Notifications may be posted from several threads at once; `deliveryLock` keeps the
/// deliveries to the subscriber from overlapping.
final class NotificationSubscription<Downstream: Subscriber>:
  Guarded<NotificationSubscription<Downstream>.State>, Subscription, NotificationPosting,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
  /// Everything about the observer that changes; guarded by the lock. Cancelling resets
  /// it to the empty state, which is how every other method sees that it ended.
  struct State {
    /// The subscriber, until cancelled.
    var downstream: Downstream?
    /// Demand not yet met; notifications beyond it are dropped.
    var demand = Subscribers.Demand.none
    /// The center observed, until cancelled.
    var center: NotificationCenter?
    /// The observer token, once registered.
    var observer: (any NSObjectProtocol)?
    /// The relay the observer block posts through, once registered.
    var relay: NotificationRelay?
  }

  /// Held while calling into `downstream`, so deliveries never overlap.
  private let deliveryLock = RecursiveLock()

  init(downstream: Downstream, center: NotificationCenter) {
    super.init(state: State(downstream: downstream, center: center))
  }

  /// Registers the observer, unless the subscriber cancelled already.
  func observe(name: Notification.Name, object: AnyObject?) {
    guard let center = withLock({ $0.center }) else { return }
    let relay = withLock { state -> NotificationRelay in
      let relay = NotificationRelay(self)
      state.relay = relay
      return relay
    }
    let token = center.addObserver(forName: name, object: object, queue: nil) {
      relay.target?.post($0)
    }
    let cancelled = withLock { state -> Bool in
      guard state.downstream != nil else { return true }
      state.observer = token
      return false
    }
    if cancelled {
      relay.clear()
      center.removeObserver(token)
    }
  }

  func post(_ notification: Notification) {
    let target = withLock { state -> Downstream? in
      guard let downstream = state.downstream, state.demand > 0 else { return nil }
      state.demand -= 1
      return downstream
    }
    guard let target else { return }
    let more = deliveryLock.withLock { target.receive(notification) }
    if more > 0 { withLock { state in if state.downstream != nil { state.demand += more } } }
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    withLock { state in if state.downstream != nil { state.demand += additional } }
  }

  func cancel() {
    let ended = withLock { state -> State in
      defer { state = State() }
      return state
    }
    ended.relay?.clear()
    if let center = ended.center, let observer = ended.observer { center.removeObserver(observer) }
  }

  var description: String { "NotificationCenter Observer" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}

/// Something a notification can be handed to.
protocol NotificationPosting: AnyObject, Sendable {
  func post(_ notification: Notification)
}

/// Holds the subscription for the observer block until the subscription is cancelled,
/// so the block captures no generic type and a cancelled subscription is released even
/// if the notification center keeps the block a little longer.
///
/// Unchecked `Sendable`: its state, the subscription until ``clear()``, is guarded by the
/// lock.
final class NotificationRelay: Guarded<(any NotificationPosting)?>, @unchecked Sendable {
  init(_ target: any NotificationPosting) { super.init(state: target) }

  /// The subscription, until ``clear()``.
  var target: (any NotificationPosting)? { withLock { $0 } }

  /// Lets go of the subscription.
  func clear() { withLock { $0 = nil } }
}
