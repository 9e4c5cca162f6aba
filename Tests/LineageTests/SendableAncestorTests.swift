import Lineage
import Testing

private final class SharedTheme: Ancestor {
  @Inherited var accent: String?
}

@Suite struct SendableAncestorTests {
  /// An ancestor crosses to other threads in a ``SendableAncestor`` and works there:
  /// writes from many tasks all land, and a descendant reads the last one through.
  @Test func anAncestorCrossesThreadsInAHandle() async {
    let theme = SendableAncestor(SharedTheme())
    let child = SendableAncestor(theme.member.descendant())
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<32 {
        group.addTask { theme.member.accent = "accent \(index)" }
      }
    }
    theme.member.accent = "teal"
    #expect(await Task.detached { child.member.accent }.value == "teal")
    #expect(SendableAncestor(child.member) == child)
  }
}
