import Foundation
import ReactiveCore

/// Cancels, as the test process exits, every subscription that a ``TrackingSubscriber``
/// still holds, and has every ``ManualPublisher`` let go of its subscriber.
///
/// A `TrackingSubscriber` keeps its subscription for good, so that a test can inspect it
/// and ask it for more, and a `ManualPublisher` keeps its last subscriber for good, so
/// that a test can send to it; many tests end without cancelling. Each such subscription
/// is a cycle (subscriber → subscription → … → subscriber, or publisher → subscriber → …
/// → a closure that captured the publisher) that the test left, not one the library made:
/// with Combine too, a subscription nobody cancels or completes stays. Breaking them all
/// just before the process exits turns each of those tests into a check that a cancel
/// releases everything: LeakSanitizer runs after this (its own exit handler was
/// registered first, at start-up, so it runs last), and reports whatever a cancel failed
/// to free (see `.ci/asan`).
enum OpenSubscriptions {
  /// One closure per tracker or publisher, each holding it weakly.
  private static let releases = LockedBox<[@Sendable () -> Void]>([])

  /// Registers the exit handler, once.
  private static let exitHandler: Void = {
    _ = atexit { OpenSubscriptions.releaseAll() }
  }()

  /// Remembers `release`, to run it when the process exits.
  static func register(_ release: @escaping @Sendable () -> Void) {
    _ = exitHandler
    releases.withLock { $0.append(release) }
  }

  /// Runs and forgets every registered closure.
  static func releaseAll() {
    let all = releases.withLock { list in
      defer { list = [] }
      return list
    }
    for release in all { release() }
  }
}
