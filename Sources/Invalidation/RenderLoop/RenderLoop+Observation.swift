// `withObservationTracking(_:didSet:)` is the toolchain's SPI form (the one SwiftUI uses):
// it calls back after the new value is stored, so a change made on another thread is
// read by the pass it schedules, and its registration lasts until cancelled, which lets
// the loop keep it until the next one is in place. The public form calls back once,
// before the store.
#if canImport(Darwin)
  import Observation
#else
  @_spi(SwiftUI) import Observation
#endif

extension RenderLoop: PhaseTracker {
  func track(_ node: HeadlessNode, _ phase: ObservedPhase, _ body: () -> Void) {
    #if canImport(Darwin)
      // Apple's SDKs do not expose the SPI form: every run tracks with the public one,
      // which calls back once, before the store; the pass it schedules reads the stored
      // value. A change made on another thread between a read and the installation of
      // the next registration is not seen until something else changes.
      withObservationTracking(body, onChange: self.firstChange(of: node, phase))
    #else
      trackAfterStores(node, phase, body)
    #endif
  }

  #if !canImport(Darwin)
    /// Tracks with the SPI form once the phase has read observable state (see the top of
    /// this file).
    private func trackAfterStores(
      _ node: HeadlessNode, _ phase: ObservedPhase, _ body: () -> Void
    ) {
      if let observer = node.existingObserver(for: phase, loop: self) {
        // This phase has read observable properties before: track with the form that
        // calls back after the store (it allocates, so only such phases pay for it).
        guard let generation = observer.beginTracking() else {
          // Enough registrations wait already (see `PhaseObserver.registrationLimit`).
          body()
          return
        }
        withObservationTracking(
          body, didSet: { tracking in observer.changed(tracking, generation: generation) })
        // Only now that the new registration is in place does the previous one go: a change
        // made between a read above and the installation still reached the previous one.
        observer.endPreviousTracking()
      } else {
        // Most phases read nothing observable: the public form costs no allocation then,
        // and builds its callback only if something was read. Its callback comes before
        // the store, but the pass it leads to runs this phase under the form above, whose
        // registration still sees a store that had not happened yet.
        withObservationTracking(body, onChange: self.firstChange(of: node, phase))
      }
    }
  #endif

  /// The callback for a phase's first observable reads; creates the phase's observer.
  private func firstChange(of node: HeadlessNode, _ phase: ObservedPhase) -> @Sendable () -> Void {
    let observer = node.observer(for: phase, loop: self)
    return { observer.changed(nil, generation: nil) }
  }
}

/// The loop, as seen from a phase observer.
protocol ObservationSink: AnyObject, Sendable {
  func observedChange(_ observer: PhaseObserver)
}

extension RenderLoop: ObservationSink {}

extension HeadlessNode {
  /// The node's observer for `phase` if this loop created one (the phase read observable
  /// properties in an earlier pass).
  func existingObserver(for phase: ObservedPhase, loop: any ObservationSink) -> PhaseObserver? {
    guard !phaseObservers.isEmpty, let observer = phaseObservers[phase.rawValue],
      observer.reports(to: loop)
    else { return nil }
    return observer
  }

  /// The node's observer for `phase`, created on first use or when another loop tracks.
  func observer(for phase: ObservedPhase, loop: any ObservationSink) -> PhaseObserver {
    if phaseObservers.isEmpty {
      phaseObservers = Array(repeating: nil, count: ObservedPhase.allCases.count)
    }
    if let existing = phaseObservers[phase.rawValue], existing.reports(to: loop) {
      return existing
    }
    phaseObservers[phase.rawValue]?.stopTracking()
    let created = PhaseObserver(node: self, phase: phase, loop: loop)
    phaseObservers[phase.rawValue] = created
    return created
  }

  /// Whether this node is `root` or below it.
  func isInTree(of root: HeadlessNode) -> Bool {
    var node: HeadlessNode? = self
    while let current = node {
      if current === root { return true }
      node = current.parent
    }
    return false
  }
}
