/// Which subject a hub serves; its subscriptions describe themselves by this name, as
/// Combine's do (`@Published` and `ObservableObjectPublisher` are subjects of their own
/// there).
@usableFromInline
enum SubjectKind: UInt8, Sendable {
  case passthrough
  case currentValue
  case published
  case observableObject

  /// The name Combine's subscriptions of this subject give.
  @usableFromInline
  var name: String {
    switch self {
    case .passthrough: "PassthroughSubject"
    case .currentValue: "CurrentValueSubject"
    case .published: "PublishedSubject"
    case .observableObject: "ObservableObjectPublisher"
    }
  }
}
