import ReactiveCore

extension Publisher {
  /// Sends each run of `size` consecutive values, sliding by one: for `nwise(3)` and
  /// values 1…5, `[1, 2, 3]`, `[2, 3, 4]`, `[3, 4, 5]`.
  ///
  /// - Parameter size: The length of each run; one or more.
  /// - Returns: A publisher of runs, starting once `size` values have arrived.
  public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
    precondition(size > 0, "size must be one or more")
    return scan([Output]()) { window, value in
      var window = window
      if window.count == size { window.removeFirst() }
      window.append(value)
      return window
    }
    .filter { $0.count == size }
    .eraseToAnyPublisher()
  }

  /// Sends each value paired with the one before it: for values 1…4, `(1, 2)`, `(2, 3)`,
  /// `(3, 4)`.
  ///
  /// - Returns: A publisher of consecutive pairs.
  public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
    nwise(2).map { ($0[0], $0[1]) }.eraseToAnyPublisher()
  }
}
