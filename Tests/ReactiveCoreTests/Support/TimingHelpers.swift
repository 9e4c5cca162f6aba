import ReactiveCore

typealias Tracking = TrackingSubscriber<Int, TestError>

typealias Upstream = ManualPublisher<Int, TestError>

/// The instant `ms` milliseconds after zero on a ``TestScheduler``.
func at(_ ms: Int) -> SchedulerInstant { SchedulerInstant(ms * 1_000_000) }
