import ReactiveCore

extension Publisher where Output == Never {
  /// Gives a publisher that never emits a value the output type downstream expects: the
  /// output analog of `setFailureType(to:)`, as CombineExt's `setOutputType(to:)`.
  ///
  ///     let saved: AnyPublisher<Int, Error> = save.ignoreOutput()
  ///       .setOutputType(to: Int.self)
  ///       .eraseToAnyPublisher()
  ///
  /// - Parameter outputType: The new output type.
  /// - Returns: The same events, typed with `NewOutput`.
  public func setOutputType<NewOutput>(to outputType: NewOutput.Type)
    -> Publishers.Map<
      Self, NewOutput
    >
  {
    map { never -> NewOutput in }
  }
}

extension Publisher {
  /// Ignores every value and types the result with `NewOutput`, as CombineExt's
  /// `ignoreOutput(setOutputType:)` does.
  ///
  /// - Parameter outputType: The output type of the returned publisher.
  /// - Returns: A publisher of the upstream's completion only.
  public func ignoreOutput<NewOutput>(setOutputType outputType: NewOutput.Type)
    -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput>
  {
    ignoreOutput().map { never -> NewOutput in }
  }
}
