import ReactiveCore

/// A publisher that outside callers feed with ``accept(_:)``: a subject that never fails
/// and cannot be finished by its callers (it finishes when it is deallocated).
public protocol Relay: Publisher where Failure == Never {
  /// Relays a value to the subscribers.
  ///
  /// - Parameter value: The value to send.
  func accept(_ value: Output)

  /// Feeds this relay with every value of `publisher`; the publisher's finish does not end
  /// the relay.
  ///
  /// - Parameter publisher: An infallible publisher of the relay's values.
  /// - Returns: A cancellable that stops the feeding.
  func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
  where P.Output == Output, P.Failure == Never
}

extension Relay where Self: AnyObject {
  /// Feeds this relay with every value of `publisher`, holding the relay weakly: the
  /// feeding keeps no relay alive, and values sent after the relay is gone are dropped.
  ///
  /// - Parameter publisher: An infallible publisher of values to relay.
  /// - Returns: A cancellable that stops the feeding.
  public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable
  where P.Output == Output, P.Failure == Never {
    publisher.sink { [weak self] in self?.accept($0) }
  }
}

extension Publisher where Failure == Never {
  /// Feeds `relay` with every value of this publisher.
  ///
  /// - Parameter relay: The relay to feed.
  /// - Returns: A cancellable that stops the feeding.
  public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
    relay.subscribe(self)
  }
}

extension Relay where Output == Void {
  /// Relays `()` to the subscribers.
  public func accept() { accept(()) }
}
