/// Misuse of a lineage, reported before anything changes.
public enum LineageError: Error, Equatable, CustomStringConvertible {
  /// Reparenting would make the instance its own ancestor.
  case cycle(instance: String, proposedAncestor: String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .cycle(let instance, let proposed):
      "Reparenting \(instance) to \(proposed) would make \(instance) its own ancestor; "
        + "nothing changed. Choose an ancestor outside its line of descendants."
    }
  }
}
