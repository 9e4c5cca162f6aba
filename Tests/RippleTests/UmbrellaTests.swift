import Foundation
import Ripple
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `import Ripple` alone reaches a name from each module.
@Suite struct UmbrellaTests {
  final class Node: HeadlessNode {
    @Invalidating(.display) var text = ""
  }

  final class Theme: Ancestor {
    @Inherited var accent: String = "blue"
  }

  @Test func reexportsEveryModule() throws {
    // ReactiveCore
    var received: [Int] = []
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    #expect(received == [1])

    // Invalidation
    let node = Node(frame: Rect(x: 0, y: 0, width: 4, height: 1))
    node.renderPass()
    node.text = "hi"
    #expect(node.needsDisplay)

    // InvalidationTerminal and InvalidationHTML, the backends, under their old names
    let input = TextInput()
    #expect(input.handle(TerminalKey.character("q")))
    #expect(input.text == "q")
    node.htmlElement = .h1
    #expect(HTMLRenderer().render(node).hasPrefix("<h1 "))

    // KeyedStore
    let store = Store()
    store.stage(3, for: StoreKey<Int>("three"))
    #expect(store[StoreKey<Int>("three")] == 3)

    // Lineage
    let base = Theme()
    let dark = base.descendant()
    base.accent = "red"
    #expect(dark.accent == "red")

    // Scopes
    let root = RootScope()
    let scope = Scope()
    try scope.attach(to: root)
    #expect(scope.state == .active)

    // ReactiveFoundationNetworking (the publisher only: no request is made before demand)
    let url = URL(string: "http://127.0.0.1:1/")!
    let publisher: URLSession.DataTaskPublisher = URLSession.shared.dataTaskPublisher(for: url)
    #expect(publisher.request.url == url)
  }
}
