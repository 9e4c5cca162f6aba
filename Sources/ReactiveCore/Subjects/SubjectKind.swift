/// Which subject a hub serves; its subscriptions describe themselves by this name, as
/// Combine's do (`@Published` is a subject of its own there).
@usableFromInline
enum SubjectKind: UInt8, Sendable {
  case passthrough
  case currentValue
  case published

  /// Whether the subject has a current value, which a subscriber that missed a value for
  /// want of demand receives at its next request, as in Combine.
  @usableFromInline
  var keepsCurrentValue: Bool { self != .passthrough }

  /// The name Combine's subscriptions of this subject give.
  @usableFromInline
  var name: String {
    switch self {
    case .passthrough: "PassthroughSubject"
    case .currentValue: "CurrentValueSubject"
    case .published: "PublishedSubject"
    }
  }
}
