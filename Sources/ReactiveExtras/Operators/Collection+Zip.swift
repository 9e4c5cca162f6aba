import ReactiveCore

extension Collection where Element: Publisher {
  /// Pairs up the values of every publisher in the collection into arrays: the first of
  /// each, then the second of each, and so on.
  ///
  ///     let rows = [names, ages, cities].zip()
  ///
  /// An empty collection finishes at once. It is one operator over all the publishers,
  /// not a chain of pairs: a value into any of them costs the same however many there are
  /// (plus building the array), and a million publishers need no deeper stack than two.
  ///
  /// - Returns: A publisher of arrays, one element per publisher, in collection order.
  public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
    ZipCollection(self).eraseToAnyPublisher()
  }
}

extension Publisher {
  /// Pairs up the values of this publisher and every publisher in `others` into arrays, as
  /// CombineExt's `zip(with:)` does: the form for any number of publishers.
  ///
  /// - Parameter others: The other publishers, in the order their values appear.
  /// - Returns: A publisher of arrays, this publisher's value first.
  public func zip<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
  where
    Others.Element: Publisher, Others.Element.Output == Output,
    Others.Element.Failure == Failure
  {
    ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).zip()
  }

  /// The variadic form of ``zip(with:)-(Others)``, as CombineExt spells it.
  ///
  /// - Parameter others: The other publishers.
  /// - Returns: A publisher of arrays, this publisher's value first.
  public func zip<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
  where Other.Output == Output, Other.Failure == Failure {
    zip(with: others)
  }
}
