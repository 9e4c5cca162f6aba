import Dispatch
import Invalidation
import ReactiveCore
import Testing

@testable import InvalidationTerminal

/// A responder that takes only the keys it is given, and records what it took.
final class TakingResponder: KeyResponder {
  let takes: Set<TerminalKey>
  var taken: [TerminalKey] = []
  init(takes: Set<TerminalKey>) { self.takes = takes }
  func handle(_ key: TerminalKey) -> Bool {
    guard takes.contains(key) else { return false }
    taken.append(key)
    return true
  }
}

@MainActor @Suite struct TerminalAppTests {
  static func app() -> TerminalApp {
    TerminalApp(
      root: HeadlessNode(frame: Rect(x: 0, y: 0, width: 10, height: 3)),
      writer: TerminalWriter { _ in })
  }

  @Test func keysGoToTheFocusFirstThenToTheApp() {
    let app = Self.app()
    var received: [TerminalKey] = []
    app.onKey = { received.append($0) }
    let focus = TakingResponder(takes: [.character("q"), .character("x")])
    app.focus = focus
    app.quitKeys = [.character("q")]
    // `q` is taken by the focus (it types a q) and never reaches the quit keys.
    for key in [TerminalKey.character("q"), .character("x"), .enter, .down] { app.handle(key) }
    #expect(focus.taken == [.character("q"), .character("x")])
    #expect(received == [.enter, .down])
  }

  @Test func withoutAFocusEveryKeyButTheQuitKeysReachesOnKey() {
    let app = Self.app()
    var received: [TerminalKey] = []
    app.onKey = { received.append($0) }
    app.quitKeys = []
    for key in [TerminalKey.character("q"), .character(" ")] { app.handle(key) }
    #expect(received == [.character("q"), .character(" ")])
    #expect(app.quitKeys.isEmpty)
    #expect(Self.app().quitKeys == [.character("q")])
  }

  @Test func aTextInputWithTheFocusTypesTheQuitKey() {
    let app = Self.app()
    let input = TextInput()
    app.focus = input
    var received: [TerminalKey] = []
    app.onKey = { received.append($0) }
    for key in [TerminalKey.character("q"), .character("!"), .enter] { app.handle(key) }
    #expect(input.text == "q!")
    #expect(received == [.enter])
  }
}
