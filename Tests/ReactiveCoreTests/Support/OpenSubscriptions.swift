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
  /// One weak reference per tracker or publisher.
  private static let releases = LockedBox<[WeakReleasable]>([])

  /// Registers the exit handler, once.
  private static let exitHandler: Void = {
    _ = atexit { OpenSubscriptions.releaseAll() }
  }()

  /// Remembers `object` (weakly), to release what it holds when the process exits.
  static func register(_ object: any ReleasesAtExit) {
    _ = exitHandler
    releases.withLock { $0.append(WeakReleasable(object: object)) }
  }

  /// Releases what every registered object still alive holds, and forgets them all.
  static func releaseAll() {
    let all = releases.withLock { list in
      defer { list = [] }
      return list
    }
    for entry in all { entry.object?.releaseAtExit() }
  }
}

/// A test double that holds a subscription or a subscriber open on purpose.
///
/// A protocol rather than a closure: a closure capturing a generic tracker would capture
/// its generic metadata, which Swift 6 warns about.
protocol ReleasesAtExit: AnyObject, Sendable {
  /// Lets go of (and cancels) whatever it holds open.
  func releaseAtExit()
}

/// A weak reference to a registered object.
private struct WeakReleasable: Sendable {
  weak var object: (any ReleasesAtExit)?
}
