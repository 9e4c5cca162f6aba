import ReactiveCore

#if canImport(Darwin)
  import Observation

  /// Apple's SDKs do not expose Observation's SPI form of tracking, so there every phase
  /// tracks with the public one-shot form and no registration handle is ever kept.
  typealias TrackingHandle = Never

  extension Never {
    /// Nothing to cancel: no handle of this type exists.
    func cancel() {}
  }
#else
  @_spi(SwiftUI) import Observation

  /// A fired registration's handle, which cancels it.
  typealias TrackingHandle = ObservationTracking
#endif

/// What a tracked read calls back into: one per node and phase, held by the node, and
/// referring to the node and its loop weakly, so that tracking keeps neither alive.
///
/// Each run of the phase installs a registration of a new generation. The current one
/// stays installed after it fires, until the next run has installed its own, so that no
/// change falls between a read and the installation that follows it; an older one cancels
/// itself when it fires.
///
/// Observation hands out a registration's handle only when it fires, so one that never
/// fired cannot be cancelled: a phase that re-runs while nothing it read changes leaves
/// one such registration per run with the model. At ``registrationLimit`` of them, later
/// runs reuse what is installed until one fires, which bounds the memory; a property that
/// only those runs started to read is then tracked from the run after the next change.
///
/// - Note: `@unchecked Sendable`: `lock` guards `generation`, `live`, `current`,
///   `previous` and `isPending` (the last for the loop's drain); `node` is only read on
///   the loop's scheduler, and `loop` is only written at creation. The guarded fields are
///   the observer's own, not a `LockedBox`'s (ReactiveCore's `Guarded` cannot be
///   subclassed outside it): an observer per observed phase of every node is one
///   allocation, not two, and the tracking callback reaches its fields without a second
///   indirection.
final class PhaseObserver: @unchecked Sendable {
  /// The most registrations a phase keeps installed at once.
  static let registrationLimit = 16

  weak var node: HeadlessNode?
  let phase: ObservedPhase
  private weak var loop: (any ObservationSink)?

  /// The lock that guards the fields below.
  private let lock = Lock()
  @exclusivity(unchecked) private var generation = 0
  /// The generations whose registrations are installed.
  @exclusivity(unchecked) private var live: Set<Int> = []
  /// The newest registration's handle, once it fired.
  @exclusivity(unchecked) private var current: TrackingHandle?
  /// The registration the running phase supersedes, once it fired, and its generation.
  @exclusivity(unchecked) private var previous: (TrackingHandle?, Int)?
  /// Whether a change waits in the loop's drain (so a burst enqueues the observer once).
  @exclusivity(unchecked) private var isPending = false

  init(node: HeadlessNode, phase: ObservedPhase, loop: any ObservationSink) {
    self.node = node
    self.phase = phase
    self.loop = loop
  }

  /// Whether this observer reports to `loop`.
  func reports(to loop: any ObservationSink) -> Bool { self.loop === loop }

  /// Starts a new generation, whose registration supersedes the current one; `nil` when
  /// ``registrationLimit`` registrations are installed already.
  func beginTracking() -> Int? {
    lock.withLock {
      guard live.count < Self.registrationLimit else { return nil }
      previous = live.contains(generation) ? (current, generation) : nil
      generation += 1
      live.insert(generation)
      current = nil
      return generation
    }
  }

  /// Cancels the registration the last ``beginTracking()`` superseded, if it ever fired
  /// (one that never fired cancels itself when it does).
  func endPreviousTracking() {
    let superseded: TrackingHandle? = lock.withLock {
      defer { previous = nil }
      guard let (tracking, supersededGeneration) = previous, let tracking else { return nil }
      live.remove(supersededGeneration)
      return tracking
    }
    superseded?.cancel()
  }

  /// Cancels the registration this observer can reach, and makes every other one cancel
  /// itself when it fires: the node left the tree, or the loop stopped.
  func stopTracking() {
    let known: TrackingHandle? = lock.withLock {
      defer { current = nil }
      if current != nil { live.remove(generation) }
      generation += 1
      return current
    }
    known?.cancel()
  }

  /// A tracked value changed (on any thread): `tracking` is the registration that fired
  /// (`nil` for the one-shot first one) of `generation`.
  func changed(_ tracking: TrackingHandle?, generation firedGeneration: Int?) {
    if let tracking, let firedGeneration {
      let cancel = lock.withLock {
        if firedGeneration == generation {
          current = tracking
          return false
        }
        // An older registration: it goes now, but still reports, since the change may
        // have come before the newer one was installed.
        return live.remove(firedGeneration) != nil
      }
      if cancel { tracking.cancel() }
    }
    guard let loop else {
      tracking?.cancel()
      return
    }
    loop.observedChange(self)
  }

  /// Marks the observer pending; returns `false` if it already was.
  func markPending() -> Bool {
    lock.withLock {
      if isPending { return false }
      isPending = true
      return true
    }
  }

  /// Clears the pending mark, before the drain reads what changed.
  func clearPending() { lock.withLock { isPending = false } }
}
