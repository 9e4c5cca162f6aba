/// A value every workload folds its results into, so the optimiser cannot drop work.
nonisolated(unsafe) public var blackHole = 0
