import ReactiveCore

extension Publisher where Output: Hashable {
  /// Drops every value equal to one sent before, not only to the previous one, as
  /// CombineExt's `removeAllDuplicates()` does.
  ///
  /// Each subscription remembers its own values (CombineExt's returned publisher shares one
  /// set between all of its subscriptions, so a second subscriber sees nothing the first
  /// saw). The values seen are kept in memory for the subscription's life.
  ///
  /// - Returns: A publisher of each distinct value, the first time it comes.
  public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
    Deferred {
      var seen = Set<Output>()
      return self.filter { seen.insert($0).inserted }
    }
  }
}

extension Publisher where Output: Equatable {
  /// Drops every value equal to one sent before, as CombineExt's `removeAllDuplicates()`
  /// does for values that are `Equatable` only; each subscription keeps its own list.
  ///
  /// - Returns: A publisher of each distinct value, the first time it comes.
  /// - Complexity: O(*n*) per value for *n* distinct values so far.
  public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
    removeAllDuplicates(by: ==)
  }
}

extension Publisher {
  /// Drops every value that `comparator` finds equal to one sent before, as CombineExt's
  /// `removeAllDuplicates(by:)` does; each subscription keeps its own list.
  ///
  /// - Parameter comparator: Called with an earlier value and the incoming one; `true` drops
  ///   the incoming value.
  /// - Returns: A publisher of each distinct value, the first time it comes.
  /// - Complexity: O(*n*) per value for *n* distinct values so far.
  public func removeAllDuplicates(by comparator: @escaping (Output, Output) -> Bool)
    -> Deferred<Publishers.Filter<Self>>
  {
    Deferred {
      var seen: [Output] = []
      return self.filter { incoming in
        if seen.contains(where: { comparator($0, incoming) }) { return false }
        seen.append(incoming)
        return true
      }
    }
  }
}
