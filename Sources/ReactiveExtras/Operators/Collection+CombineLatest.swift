import ReactiveCore

extension Collection where Element: Publisher {
  /// Combines the latest values of every publisher in the collection into an array, once
  /// each has sent a value, and again whenever any sends another.
  ///
  ///     let totals = [price, tax, shipping].combineLatest().map { $0.reduce(0, +) }
  ///
  /// An empty collection finishes at once. It is one operator over all the publishers,
  /// not a chain of pairs: a value into any of them costs the same however many there are
  /// (plus building the array), and a million publishers need no deeper stack than two.
  ///
  /// - Returns: A publisher of arrays, one element per publisher, in collection order.
  public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
    CombineLatestCollection(self).eraseToAnyPublisher()
  }
}

extension Publisher {
  /// Combines the latest values of this publisher and every publisher in `others` into an
  /// array, as CombineExt's `combineLatest(with:)` does: the form for any number of
  /// publishers, past Combine's `combineLatest` of four.
  ///
  ///     let totals = price.combineLatest(with: [tax, shipping]).map { $0.reduce(0, +) }
  ///
  /// - Parameter others: The other publishers, in the order their values appear.
  /// - Returns: A publisher of arrays, this publisher's value first.
  public func combineLatest<Others: Collection>(with others: Others)
    -> AnyPublisher<[Output], Failure>
  where
    Others.Element: Publisher, Others.Element.Output == Output,
    Others.Element.Failure == Failure
  {
    ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).combineLatest()
  }

  /// The variadic form of ``combineLatest(with:)-(Others)``, as CombineExt spells it.
  ///
  /// - Parameter others: The other publishers.
  /// - Returns: A publisher of arrays, this publisher's value first.
  public func combineLatest<Other: Publisher>(with others: Other...)
    -> AnyPublisher<[Output], Failure>
  where Other.Output == Output, Other.Failure == Failure {
    combineLatest(with: others)
  }
}
