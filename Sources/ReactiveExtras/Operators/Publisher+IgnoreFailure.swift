import ReactiveCore

extension Publisher {
  /// Drops the upstream's failure, as CombineExt's `ignoreFailure(completeImmediately:)`
  /// does: the analog of `ignoreOutput()` for errors.
  ///
  /// - Parameter completeImmediately: Whether a failure ends the publisher with `.finished`
  ///   (the default) or leaves it open without further events.
  /// - Returns: A publisher of the upstream's values that never fails.
  public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
    self.catch { _ in Empty<Output, Never>(completeImmediately: completeImmediately) }
      .eraseToAnyPublisher()
  }

  /// Drops the upstream's failure and types the result with another failure type, as
  /// CombineExt's `ignoreFailure(setFailureType:completeImmediately:)` does.
  ///
  /// - Parameters:
  ///   - newFailureType: The failure type of the returned publisher.
  ///   - completeImmediately: Whether a failure ends the publisher with `.finished`.
  /// - Returns: A publisher of the upstream's values that never fails.
  public func ignoreFailure<NewFailure: Error>(
    setFailureType newFailureType: NewFailure.Type, completeImmediately: Bool = true
  ) -> AnyPublisher<Output, NewFailure> {
    ignoreFailure(completeImmediately: completeImmediately)
      .setFailureType(to: newFailureType)
      .eraseToAnyPublisher()
  }
}
