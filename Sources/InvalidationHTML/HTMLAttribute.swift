/// An extra attribute for a node's element in ``HTMLRenderer`` output, such as
/// `data-testid` or `aria-label`. The name is checked when the attribute is made; the value
/// may be anything, since the renderer always quotes and escapes it.
///
///     let label = try HTMLAttribute(name: "aria-label", value: "Downloads: 40%")
public struct HTMLAttribute: Hashable, Sendable {
  /// The attribute name.
  public let name: String
  /// The attribute value, unescaped.
  public let value: String

  /// Creates an attribute.
  ///
  /// - Parameters:
  ///   - name: ASCII letters, digits, `-`, `_`, `:` and `.`, starting with a letter.
  ///   - value: Any text; it is escaped when rendered.
  /// - Throws: ``HTMLRenderingError/invalidAttributeName(_:)`` for any other name, and
  ///   ``HTMLRenderingError/reservedAttributeName(_:)`` for `style`, `class` and event
  ///   handlers (`on…`), which the renderer owns or which would run script.
  public init(name: String, value: String) throws(HTMLRenderingError) {
    guard HTMLEscaping.isValidAttributeName(name) else {
      throw .invalidAttributeName(name)
    }
    let lowered = name.lowercased()
    guard lowered != "style", lowered != "class", !lowered.hasPrefix("on") else {
      throw .reservedAttributeName(name)
    }
    self.name = name
    self.value = value
  }
}

/// Why an ``HTMLAttribute`` could not be made.
public enum HTMLRenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The name holds characters an attribute name cannot, or is empty or too long.
  case invalidAttributeName(String)
  /// The name is one the renderer writes itself (`style`, `class`) or an event handler.
  case reservedAttributeName(String)

  /// A sentence for logs.
  public var description: String {
    switch self {
    case .invalidAttributeName(let name):
      "invalid HTML attribute name \(String(reflecting: name)): use ASCII letters, digits, -, _, : and ., starting with a letter"
    case .reservedAttributeName(let name):
      "reserved HTML attribute name \(String(reflecting: name)): style, class and on… handlers are not allowed"
    }
  }
}
