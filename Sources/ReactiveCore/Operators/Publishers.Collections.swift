/// `combineLatest` over a collection of publishers, as one n-ary operator: one engine and
/// one side per upstream, no nesting, so any number of upstreams costs no stack depth and
/// a value costs O(1) plus the output array. ReactiveExtras' `Collection.combineLatest()`
/// is built on it.
package struct CombineLatestCollection<Upstreams: Collection>: Publisher
where Upstreams.Element: Publisher {
  /// An array of the latest values, in collection order.
  package typealias Output = [Upstreams.Element.Output]
  /// The upstreams' failure.
  package typealias Failure = Upstreams.Element.Failure

  /// The upstreams.
  package let upstreams: Upstreams

  /// Combines `upstreams`; an empty collection finishes at once.
  package init(_ upstreams: Upstreams) { self.upstreams = upstreams }

  /// Attaches the subscriber, then subscribes to every upstream in order.
  package func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    let count = upstreams.count
    guard count > 0 else {
      return Empty<Output, Failure>().receive(subscriber: subscriber)
    }
    typealias Rule = CombineLatestManyRule<Upstreams.Element.Output>
    CombineLatestEngine<S, Rule>(sides: count, rule: Rule(sides: count), downstream: subscriber)
      .start(subscriber) { engine in
        for (index, upstream) in upstreams.enumerated() {
          engine.attach(upstream, as: index) { $0.accept($1, at: index) }
        }
      }
  }
}

/// `zip` over a collection of publishers, as one n-ary operator: one subscription and
/// one queue per upstream, no nesting, so any number of upstreams costs no stack depth
/// and a value costs O(1) plus the output array. ReactiveExtras' `Collection.zip()` is
/// built on it.
package struct ZipCollection<Upstreams: Collection>: Publisher
where Upstreams.Element: Publisher {
  /// An array of one value of each upstream, in collection order.
  package typealias Output = [Upstreams.Element.Output]
  /// The upstreams' failure.
  package typealias Failure = Upstreams.Element.Failure

  /// The upstreams.
  package let upstreams: Upstreams

  /// Zips `upstreams`; an empty collection finishes at once.
  package init(_ upstreams: Upstreams) { self.upstreams = upstreams }

  /// Attaches the subscriber, then subscribes to every upstream in order.
  package func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    let count = upstreams.count
    guard count > 0 else {
      return Empty<Output, Failure>().receive(subscriber: subscriber)
    }
    let inner = ZipSubscription(
      sides: count, downstream: subscriber,
      queues: ZipManyQueues<Upstreams.Element.Output>(sides: count))
    subscriber.receive(subscription: inner)
    for (index, upstream) in upstreams.enumerated() {
      inner.attach(upstream, as: index) { $0.append($1, at: index) }
    }
  }
}
