import ReactiveCore

extension Publisher {
  /// Maps each value to a publisher and passes on the values of the latest one only,
  /// cancelling the previous: `map(transform).switchToLatest()`.
  ///
  ///     let results = query.flatMapLatest { text in search(text) }
  ///
  /// - Parameter transform: Makes a publisher of each value.
  /// - Returns: A publisher of the latest inner publisher's values.
  public func flatMapLatest<P: Publisher>(_ transform: @escaping (Output) -> P)
    -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure
  {
    map(transform).switchToLatest()
  }
}
