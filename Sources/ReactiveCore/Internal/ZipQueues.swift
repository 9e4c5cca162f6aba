/// The values a `zip` of up to four upstreams holds, generic over the largest arity: one
/// queue per upstream, each in its own type, and the function that builds the
/// downstream's tuple from one value of each. A smaller arity makes the unused queues
/// constant `Void`s, which are never empty.
@usableFromInline
struct ZipQueues<A, B, C, D, Output> {
  @usableFromInline
  var a = SlotQueue<A>()
  @usableFromInline
  var b = SlotQueue<B>()
  @usableFromInline
  var c: SlotQueue<C>
  @usableFromInline
  var d: SlotQueue<D>
  @usableFromInline
  let combine: (A, B, C, D) -> Output

  /// Queues for up to four upstreams; `c` and `d` fill the slots a smaller arity does not
  /// use.
  @inlinable
  init(c: C? = nil, d: D? = nil, combine: @escaping (A, B, C, D) -> Output) {
    self.c = SlotQueue(constant: c)
    self.d = SlotQueue(constant: d)
    self.combine = combine
  }

  /// Whether upstream `side` has no value waiting.
  @inlinable
  func isEmpty(_ side: Int) -> Bool {
    switch side {
    case 0: a.isEmpty
    case 1: b.isEmpty
    case 2: c.isEmpty
    default: d.isEmpty
    }
  }

  /// Takes the oldest value of every upstream, if each has one, as the downstream's tuple.
  @inlinable
  mutating func takeTuple() -> Output? {
    guard !a.isEmpty, !b.isEmpty, !c.isEmpty, !d.isEmpty else { return nil }
    return combine(a.take(), b.take(), c.take(), d.take())
  }
}

/// One upstream's waiting values, oldest first; or, for a slot an arity does not use, one
/// constant that is always there.
@usableFromInline
struct SlotQueue<Value> {
  @usableFromInline
  var values = FIFOQueue<Value>()
  @usableFromInline
  let constant: Value?

  /// An empty queue, or an unused slot that always holds `constant`.
  @inlinable
  init(constant: Value? = nil) { self.constant = constant }

  /// Whether no value waits.
  @inlinable
  var isEmpty: Bool { constant == nil && values.isEmpty }

  /// Queues a value.
  @inlinable
  mutating func append(_ value: Value) { values.append(value) }

  /// Takes the oldest value. The queue must not be empty.
  @inlinable
  mutating func take() -> Value {
    if let constant { return constant }
    guard let value = values.popFirst() else { preconditionFailure("taken from an empty queue") }
    return value
  }
}
