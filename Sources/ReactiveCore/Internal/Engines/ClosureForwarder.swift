/// A stateless subscriber that hands each event to closures and passes the upstream
/// subscription straight through: the shape of every operator that needs no state of
/// its own (`compactMap`, key-path `map`, `mapError`, `setFailureType`, …).
@usableFromInline
struct ClosureForwarder<Input, Failure: Error, Downstream: Subscriber>: Subscriber,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let onValue: (Input, Downstream) -> Subscribers.Demand
  @usableFromInline
  let onCompletion: (Subscribers.Completion<Failure>, Downstream) -> Void
  @usableFromInline
  let onSubscription: ((any Subscription) -> Void)?
  @usableFromInline
  let description: String
  /// The children Combine's mirror of this operator shows (its key paths, its running
  /// result), read when someone reflects it; `nil` for none.
  @usableFromInline
  let reflectedChildren: (() -> [Mirror.Child])?
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  init(
    _ name: String, downstream: Downstream,
    onSubscription: ((any Subscription) -> Void)? = nil,
    reflectedChildren: (() -> [Mirror.Child])? = nil,
    onValue: @escaping (Input, Downstream) -> Subscribers.Demand,
    onCompletion: @escaping (Subscribers.Completion<Failure>, Downstream) -> Void
  ) {
    description = name
    self.downstream = downstream
    self.onSubscription = onSubscription
    self.reflectedChildren = reflectedChildren
    self.onValue = onValue
    self.onCompletion = onCompletion
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
    onSubscription?(subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand { onValue(input, downstream) }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion, downstream) }

  @usableFromInline
  var customMirror: Mirror {
    Mirror(self, children: reflectedChildren?() ?? [], ancestorRepresentation: .suppressed)
  }
  @usableFromInline
  var playgroundDescription: Any { description }
}

extension ClosureForwarder where Failure == Downstream.Failure {
  /// A forwarder that passes the completion on unchanged.
  @inlinable
  init(
    _ name: String, downstream: Downstream,
    onSubscription: ((any Subscription) -> Void)? = nil,
    reflectedChildren: (() -> [Mirror.Child])? = nil,
    onValue: @escaping (Input, Downstream) -> Subscribers.Demand
  ) {
    self.init(
      name, downstream: downstream, onSubscription: onSubscription,
      reflectedChildren: reflectedChildren, onValue: onValue,
      onCompletion: { completion, downstream in downstream.receive(completion: completion) })
  }
}
