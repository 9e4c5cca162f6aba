import Foundation
import ReactiveCore

extension RunLoop {
  /// OpenCombine's scheduler wrapper for a run loop: `RunLoop.OCombine(.main)` and
  /// `runLoop.ocombine`.
  ///
  /// In ReactiveCore the run loop is itself a scheduler, as in Combine; the wrapper
  /// forwards every call to it and shares its time and options types, so
  /// `RunLoop.OCombine.SchedulerTimeType` *is* `RunLoop.SchedulerTimeType`.
  ///
  ///     let cancellable = Just(1).receive(on: RunLoop.main.ocombine).sink { print($0) }
  ///     RunLoop.main.run(until: Date())
  ///     // Prints "1"
  ///
  /// - Note: As thread-safe as the run loop: actions run on the run loop's thread.
  public struct OCombine: Scheduler {
    /// The run loop this scheduler schedules on.
    public let runLoop: RunLoop

    /// Wraps `runLoop` as a scheduler.
    ///
    /// - Parameter runLoop: The run loop to schedule on.
    public init(_ runLoop: RunLoop) { self.runLoop = runLoop }

    /// The run loop's time type: a `Date`.
    public typealias SchedulerTimeType = RunLoop.SchedulerTimeType
    /// The run loop's options: none.
    public typealias SchedulerOptions = RunLoop.SchedulerOptions

    /// The run loop's definition of the current moment in time: the current date.
    public var now: SchedulerTimeType { runLoop.now }

    /// The minimum tolerance the run loop allows.
    public var minimumTolerance: SchedulerTimeType.Stride { runLoop.minimumTolerance }

    /// Performs the action on the run loop's thread the next time the run loop runs.
    ///
    /// - Parameters:
    ///   - options: Unused.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      runLoop.schedule(options: options, action)
    }

    /// Performs the action on the run loop's thread once `date` has passed.
    ///
    /// - Parameters:
    ///   - date: The earliest time to run the action.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Unused.
    ///   - action: The action to perform.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) {
      runLoop.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Performs the action on the run loop's thread at `date` and then every `interval`,
    /// until cancelled.
    ///
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Unused.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetition.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) -> any Cancellable {
      runLoop.schedule(
        after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
  }

  /// The run loop as OpenCombine's scheduler wrapper: `runLoop.ocombine` is
  /// `RunLoop.OCombine(runLoop)`.
  public var ocombine: OCombine { OCombine(self) }
}
