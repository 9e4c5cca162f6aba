/// A subscriber that an operator attaches to one of its upstreams on behalf of the object
/// that holds the operator's state (its `owner`).
///
/// Upstream sees the owner's combine identifier, description and mirror, as it does with
/// Combine's per-upstream subscribers; the conforming type only routes the three events to
/// the owner. Each upstream gets its own conforming type, so a late event from one can
/// never be taken for one from another.
protocol OwnerForwardingSubscriber: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  /// The type of the object that holds the operator's state and identity.
  associatedtype
    Owner: CustomCombineIdentifierConvertible & CustomStringConvertible
        & CustomReflectable & CustomPlaygroundDisplayConvertible
  /// The object this subscriber forwards to and stands for.
  var owner: Owner { get }
}

extension OwnerForwardingSubscriber {
  /// The owner's identifier, as in Combine.
  var combineIdentifier: CombineIdentifier { owner.combineIdentifier }
  /// The owner's description.
  var description: String { owner.description }
  /// The owner's mirror.
  var customMirror: Mirror { owner.customMirror }
  /// The owner's playground description.
  var playgroundDescription: Any { owner.playgroundDescription }
}
