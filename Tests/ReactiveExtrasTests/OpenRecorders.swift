import Foundation
import ReactiveCore

/// Cancels, as the test process exits, every subscription a ``Recorder`` still holds.
///
/// A `Recorder` keeps its subscription so that a test can ask it for more, and many tests
/// end without cancelling: each such subscription is a cycle the test left (subscriber →
/// subscription → subscriber), not one the library made. Breaking them just before the
/// process exits turns each test into a check that a cancel releases everything:
/// LeakSanitizer runs after this and reports whatever a cancel failed to free. (The same
/// idea as ReactiveCoreTests' `OpenSubscriptions`.)
enum OpenRecorders {
  /// One weak reference per recorder.
  private static let recorders = LockedBox<[WeakCancellable]>([])

  /// Registers the exit handler, once.
  private static let exitHandler: Void = {
    _ = atexit { OpenRecorders.cancelAll() }
  }()

  /// Remembers `recorder` (weakly), to cancel it when the process exits.
  static func register(_ recorder: any Cancellable & AnyObject & Sendable) {
    _ = exitHandler
    recorders.withLock { $0.append(WeakCancellable(object: recorder)) }
  }

  /// Cancels every registered recorder still alive.
  static func cancelAll() {
    let all = recorders.withLock { list in
      defer { list = [] }
      return list
    }
    for entry in all { entry.object?.cancel() }
  }
}

/// A weak reference to a registered recorder.
private struct WeakCancellable: Sendable {
  weak var object: (any Cancellable & AnyObject & Sendable)?
}
