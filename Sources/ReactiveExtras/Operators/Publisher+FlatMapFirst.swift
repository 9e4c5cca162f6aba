import ReactiveCore

extension Publisher {
  /// Maps a value to a publisher and passes on its values, ignoring upstream values that
  /// arrive while that publisher is still running: the first request wins, later taps are
  /// dropped until it is done.
  ///
  ///     let saves = saveTaps.flatMapFirst { save() }  // a double tap saves once
  ///
  /// Each subscription has its own "running" state.
  ///
  /// - Parameter transform: Makes a publisher of each value that is not ignored.
  /// - Returns: A publisher of the values of the inner publishers that ran.
  public func flatMapFirst<P: Publisher>(_ transform: @escaping (Output) -> P)
    -> AnyPublisher<P.Output, Failure> where P.Failure == Failure
  {
    let upstream = self
    return Deferred {
      let isRunning = LockedBox(false)
      return upstream.filter { _ in
        isRunning.withLock { running in
          defer { running = true }
          return !running
        }
      }
      .flatMap { value in
        transform(value).handleEvents(
          receiveCompletion: { _ in isRunning.withLock { $0 = false } },
          receiveCancel: { isRunning.withLock { $0 = false } })
      }
    }
    .eraseToAnyPublisher()
  }
}
