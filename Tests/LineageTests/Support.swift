import Lineage

final class Person: Ancestor {
  @Inherited var firstName: String?
  @Inherited var lastName: String?
  var fullName: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}

/// The Potter family: first names are plain properties, never passed down.
final class Wizard: Ancestor {
  var firstName: String?
  @Inherited var lastName: String?
}

struct Insets: Equatable, Sendable {
  var top = 0.0
  var left = 0.0
  static let zero = Insets()
}

final class SectionAttributes: Ancestor {
  @Inherited var insets: Insets = .zero
  @Inherited var columns: Int = 1
}
