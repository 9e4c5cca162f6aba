import Dispatch
import ReactiveCore

extension TerminalApp {
  /// Runs `action` on the main actor every `interval`, until the app quits or the
  /// returned cancellable is cancelled: polling a file, a clock in the status line, a
  /// spinner. The app keeps the timer; dropping the cancellable does not stop it.
  ///
  ///     app.every(.seconds(1)) { status.text = Date.now.formatted(date: .omitted, time: .standard) }
  ///
  /// Ticks run on the main queue between keys and frames, like every other callback of
  /// the app, so `action` may change nodes directly; a change redraws on the next frame.
  /// A tick that comes while the previous one is still running waits for it (ticks never
  /// overlap, and missed ones are not made up).
  ///
  /// - Parameters:
  ///   - interval: The time between ticks; the first comes one interval from now.
  ///   - action: What to do on each tick.
  /// - Returns: A cancellable that stops the timer.
  @discardableResult
  public func every(_ interval: Duration, _ action: @escaping @MainActor () -> Void)
    -> AnyCancellable
  {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(1, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
    timer.setEventHandler { MainActor.assumeIsolated { action() } }
    timer.resume()
    let stop = AnyCancellable { timer.cancel() }
    keepUntilQuit(stop)
    return stop
  }
}
