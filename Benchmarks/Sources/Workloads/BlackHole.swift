/// A value every workload folds its results into, so the optimiser cannot drop work.
///
/// Its run-time exclusivity check is off: workloads run on one thread, and the check
/// (`swift_beginAccess`, about 70 instructions) was paid by every closure compiled in
/// this module — the Ripple and OpenCombine columns — but not by the baselines' closure,
/// which `main.swift` compiles in the `RippleCompare` module, where the access is not
/// checked. With it off, every column pays the same for its consumer.
@exclusivity(unchecked)
nonisolated(unsafe) public var blackHole = 0
