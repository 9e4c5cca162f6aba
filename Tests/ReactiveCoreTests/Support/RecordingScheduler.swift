import ReactiveCore

/// A scheduler that records every call an operator makes to it (each reading of `now`
/// and `minimumTolerance` included) and runs the work on a ``TestScheduler``.
final class RecordingScheduler: Scheduler, @unchecked Sendable {
  typealias SchedulerTimeType = SchedulerInstant
  typealias SchedulerOptions = Never

  /// One call to the scheduler.
  enum Call: Equatable {
    case now
    case minimumTolerance
    case schedule
    case scheduleAfter(SchedulerInstant)
    case scheduleRepeating(SchedulerInstant, every: SchedulerStride)
  }

  /// The clock that runs the work; advancing it records nothing.
  let clock = TestScheduler()
  private let recorded = LockedBox<[Call]>([])

  /// Every call so far, in order.
  var calls: [Call] { recorded.withLock { $0 } }

  private func record(_ call: Call) { recorded.withLock { $0.append(call) } }

  var now: SchedulerInstant {
    record(.now)
    return clock.now
  }

  var minimumTolerance: SchedulerStride {
    record(.minimumTolerance)
    return clock.minimumTolerance
  }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    record(.schedule)
    clock.schedule(options: options, action)
  }

  func schedule(
    after date: SchedulerInstant, tolerance: SchedulerStride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    record(.scheduleAfter(date))
    clock.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  func schedule(
    after date: SchedulerInstant, interval: SchedulerStride, tolerance: SchedulerStride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    record(.scheduleRepeating(date, every: interval))
    return clock.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }
}
