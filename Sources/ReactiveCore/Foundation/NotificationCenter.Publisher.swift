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
final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationPosting,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
  /// The lock that guards `downstream`, `demand`, `center` and `observer`.
  private let lock = Lock()
  /// Held while calling into `downstream`, so deliveries never overlap.
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var center: NotificationCenter?
  @exclusivity(unchecked)
  private var observer: (any NSObjectProtocol)?
  @exclusivity(unchecked)
  private var relay: NotificationRelay?

  init(downstream: Downstream, center: NotificationCenter) {
    self.downstream = downstream
    self.center = center
  }

  /// Registers the observer, unless the subscriber cancelled already.
  func observe(name: Notification.Name, object: AnyObject?) {
    guard let center = lock.withLock({ center }) else { return }
    let relay = lock.withLock { () -> NotificationRelay in
      let relay = NotificationRelay(self)
      self.relay = relay
      return relay
    }
    let token = center.addObserver(forName: name, object: object, queue: nil) {
      relay.target?.post($0)
    }
    let cancelled = lock.withLock { () -> Bool in
      guard downstream != nil else { return true }
      observer = token
      return false
    }
    if cancelled {
      relay.clear()
      center.removeObserver(token)
    }
  }

  func post(_ notification: Notification) {
    let target = lock.withLock { () -> Downstream? in
      guard let downstream, demand > 0 else { return nil }
      demand -= 1
      return downstream
    }
    guard let target else { return }
    let more = deliveryLock.withLock { target.receive(notification) }
    if more > 0 { lock.withLock { if downstream != nil { demand += more } } }
  }

  func request(_ additional: Subscribers.Demand) {
    precondition(additional > 0, "demand must be greater than zero")
    lock.withLock { if downstream != nil { demand += additional } }
  }

  func cancel() {
    let taken = lock.withLock {
      () -> (NotificationCenter?, (any NSObjectProtocol)?, NotificationRelay?) in
      defer {
        downstream = nil
        center = nil
        observer = nil
        relay = nil
      }
      return (center, observer, relay)
    }
    taken.2?.clear()
    if let center = taken.0, let observer = taken.1 { center.removeObserver(observer) }
  }

  var description: String { "NotificationCenter Observer" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
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
/// Unchecked `Sendable`: `target` is guarded by `lock`.
final class NotificationRelay: @unchecked Sendable {
  private let lock = Lock()
  @exclusivity(unchecked)
  private var held: (any NotificationPosting)?

  init(_ target: any NotificationPosting) { held = target }

  /// The subscription, until ``clear()``.
  var target: (any NotificationPosting)? { lock.withLock { held } }

  /// Lets go of the subscription.
  func clear() { lock.withLock { held = nil } }
}
