/// Something that can take keys: a widget with the keyboard focus.
///
/// ``TerminalApp`` offers each key to its ``TerminalApp/focus`` first; the keys the
/// responder does not take go on to the app's quit keys and its key handler. ``TextInput``
/// takes the keys that edit text (so that `q` types a `q` while it has the focus), and
/// ``ListView`` the keys that move its selection.
///
///     final class Counter: HeadlessNode, KeyResponder {
///       var count = 0
///       func handle(_ key: TerminalKey) -> Bool {
///         guard key == .character("+") else { return false }
///         count += 1
///         setNeedsDisplay()
///         return true
///       }
///     }
public protocol KeyResponder: AnyObject {
  /// Acts on a key if it is one the responder takes.
  ///
  /// - Parameter key: A key typed in the terminal, a paste or a mouse event.
  /// - Returns: Whether the responder took the key; `false` lets it go on to the app.
  func handle(_ key: TerminalKey) -> Bool
}
