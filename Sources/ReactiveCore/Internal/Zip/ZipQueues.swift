/// The values a ``ZipSubscription`` holds until every upstream has one to pair.
protocol ZipQueueing<Output> {
  /// What a complete set of values makes.
  associatedtype Output
  /// Whether upstream `side` has no value waiting.
  func isEmpty(_ side: Int) -> Bool
  /// Takes the oldest value of every upstream, if each has one, as the downstream's value.
  mutating func takeTuple() -> Output?
}

extension ZipQueues: ZipQueueing {}

/// The values a `zip` over any number of upstreams of one type holds: one queue per
/// upstream and a count of the empty ones, so a value costs O(1) and a complete set the
/// array it builds.
struct ZipManyQueues<Value>: ZipQueueing {
  var queues: [FIFOQueue<Value>]
  /// How many queues are empty.
  var emptyCount: Int

  init(sides: Int) {
    queues = Array(repeating: FIFOQueue(), count: sides)
    emptyCount = sides
  }

  func isEmpty(_ side: Int) -> Bool { queues[side].isEmpty }

  /// Queues a value of upstream `side`.
  mutating func append(_ value: Value, at side: Int) {
    if queues[side].isEmpty { emptyCount -= 1 }
    queues[side].append(value)
  }

  mutating func takeTuple() -> [Value]? {
    guard emptyCount == 0 else { return nil }
    var tuple: [Value] = []
    tuple.reserveCapacity(queues.count)
    for side in queues.indices {
      guard let value = queues[side].popFirst() else { preconditionFailure("an empty queue") }
      tuple.append(value)
      if queues[side].isEmpty { emptyCount += 1 }
    }
    return tuple
  }
}

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
