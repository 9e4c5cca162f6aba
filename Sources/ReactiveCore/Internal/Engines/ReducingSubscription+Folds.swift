/// The folds that several reducing operators share, each with its non-throwing and `try`
/// form in one place.
///
/// The test throws the downstream's failure type: a non-throwing operator's closure
/// converts to it and never throws (its failure type is upstream's), and a `try` operator's
/// closure throws `any Error`, which fails downstream. So one fold serves both forms.
extension ReducingSubscription where Downstream.Input == Input {
  /// The subscription of `first` and `last` and their `where` and `try` forms: the result
  /// is the latest value that passes `test`.
  ///
  /// - Parameters:
  ///   - name: the operator's name, as Combine spells it.
  ///   - downstream: the subscriber.
  ///   - stopsAtMatch: `true` for `first`, whose first match ends the reduction (cancels
  ///     upstream); `false` for `last`, which waits for upstream to finish.
  ///   - test: whether to keep a value; a throw cancels upstream and fails downstream.
  /// - Returns: the subscription to hand upstream.
  static func picking(
    _ name: String, downstream: Downstream, stopsAtMatch: Bool,
    where test: @escaping (Input) throws(Downstream.Failure) -> Bool
  ) -> ReducingSubscription {
    ReducingSubscription(name, downstream: downstream, initial: nil) { picked, input in
      do throws(Downstream.Failure) {
        guard try test(input) else { return .proceed }
        picked = input
        return stopsAtMatch ? .finish : .proceed
      } catch {
        return .fail(error)
      }
    }
  }
}

extension ReducingSubscription where Downstream.Input == Bool {
  /// The subscription of `contains` and `allSatisfy` and their `where` and `try` forms:
  /// the result starts at `whenAllPass` and flips, ending the reduction (and cancelling
  /// upstream), at the first value whose test differs from it.
  ///
  /// - Parameters:
  ///   - name: the operator's name, as Combine spells it.
  ///   - downstream: the subscriber.
  ///   - whenAllPass: the result if no value flips it: `false` for `contains`, `true` for
  ///     `allSatisfy`.
  ///   - test: the test of one value; a throw cancels upstream and fails downstream.
  /// - Returns: the subscription to hand upstream.
  static func verdict(
    _ name: String, downstream: Downstream, whenAllPass: Bool,
    test: @escaping (Input) throws(Downstream.Failure) -> Bool
  ) -> ReducingSubscription {
    ReducingSubscription(name, downstream: downstream, initial: whenAllPass) { result, input in
      do throws(Downstream.Failure) {
        guard try test(input) != whenAllPass else { return .proceed }
        result = !whenAllPass
        return .finish
      } catch {
        return .fail(error)
      }
    }
  }
}

extension ReducingSubscription where Downstream.Input == Input {
  /// The subscription of `min`/`max` and their `by` and `try` forms: the result is the
  /// first value, replaced by each later one that orders after it.
  ///
  /// - Parameters:
  ///   - name: the operator's name, as Combine spells it.
  ///   - downstream: the subscriber.
  ///   - ordered: whether the best value so far orders before a new one, which then
  ///     replaces it; a throw cancels upstream and fails downstream.
  /// - Returns: the subscription to hand upstream.
  static func keepingBest(
    _ name: String, downstream: Downstream,
    ordered: @escaping (Input, Input) throws(Downstream.Failure) -> Bool
  ) -> ReducingSubscription {
    ReducingSubscription(name, downstream: downstream, initial: nil) { best, input in
      do throws(Downstream.Failure) {
        if let current = best, try !ordered(current, input) { return .proceed }
        best = input
        return .proceed
      } catch {
        return .fail(error)
      }
    }
  }
}

extension ReducingSubscription {
  /// The subscription of `reduce` and `tryReduce`: the result starts at `initial` and
  /// each value is folded into it with `next`.
  ///
  /// - Parameters:
  ///   - name: the operator's name, as Combine spells it.
  ///   - downstream: the subscriber.
  ///   - initial: the result before any value.
  ///   - next: the next result from the current one and a value; a throw cancels
  ///     upstream and fails downstream.
  /// - Returns: the subscription to hand upstream.
  static func accumulating(
    _ name: String, downstream: Downstream, initial: Downstream.Input,
    next: @escaping (Downstream.Input, Input) throws(Downstream.Failure) -> Downstream.Input
  ) -> ReducingSubscription {
    ReducingSubscription(name, downstream: downstream, initial: initial) { result, input in
      do throws(Downstream.Failure) {
        // `result` starts at `initial` and is never cleared.
        result = try next(result!, input)
        return .proceed
      } catch {
        return .fail(error)
      }
    }
  }
}
