/// Why a ``Terminal`` could not be opened.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The descriptor is not a terminal (output piped to a file, input from /dev/null…).
  case notATerminal(descriptor: Int32)
  /// The terminal's attributes could not be read or set; `errno` says why.
  case attributesUnavailable(errno: Int32)
  /// Another ``Terminal`` is open in this process; restore it first.
  case alreadyOpen

  /// A sentence for logs.
  public var description: String {
    switch self {
    case .notATerminal(let descriptor):
      "file descriptor \(descriptor) is not a terminal; render with FrameBuffer or HTMLRenderer instead"
    case .attributesUnavailable(let errno):
      "the terminal's attributes could not be changed (errno \(errno))"
    case .alreadyOpen: "a Terminal is already open in this process; restore it first"
    }
  }
}
