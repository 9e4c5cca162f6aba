import ReactiveCore

extension Publisher {
  /// Shares one subscription to this publisher among all subscribers, replaying the last
  /// `count` values to each new one.
  ///
  ///     let shared = expensiveRequest.share(replay: 1)
  ///     let first = shared.sink { print($0) }   // subscribes upstream
  ///     let second = shared.sink { print($0) }  // gets the last value at once
  ///
  /// The upstream is subscribed when the first subscriber arrives and stays subscribed
  /// while any subscriber is attached; a completion is replayed to later subscribers.
  ///
  /// - Parameter count: How many of the latest values to replay; zero or more.
  /// - Returns: A publisher shared through a ``ReplaySubject``.
  public func share(replay count: Int)
    -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>>
  {
    multicast(subject: ReplaySubject(bufferSize: count)).autoconnect()
  }
}
