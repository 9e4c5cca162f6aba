import Lineage
import ReactiveCore
import Testing

/// A theme with a subclass, as a page generator has it.
class Theme: Ancestor {
  @Inherited var size: Int = 12
  @Inherited var accent: String?
}

final class DarkTheme: Theme {
  @Inherited var contrast: Double = 1
}

/// `heir.publisher(for: \.size)` said "value of type 'Ancestor' has no member 'size'";
/// the key path's root is now the instance's own type, so `\.size` is enough.
@Suite struct KeyPathInferenceTests {
  @Test func publisherInfersTheSubclass() {
    let root = Theme()
    let heir = root.descendant()
    var sizes: [Int] = []
    let cancellable = heir.publisher(for: \.size).sink { sizes.append($0) }
    root.size = 14
    heir.size = 16
    root.size = 18
    #expect(sizes == [12, 14, 16])
    cancellable.cancel()
  }

  @Test func stopResumeAndIsInheritingInferTheSubclass() {
    let root = Theme()
    root.accent = "blue"
    let heir = root.descendant()
    heir.stopInheriting(\.accent)
    #expect(heir.accent == nil)
    #expect(!heir.isInheriting(\.accent))
    heir.resumeInheriting(\.accent)
    #expect(heir.accent == "blue")
    #expect(heir.isInheriting(\.accent))
  }

  @Test func aSubclassInfersItsOwnAndInheritedProperties() {
    let root = DarkTheme()
    let heir = root.descendant()
    var seen: [String] = []
    let sizes = heir.publisher(for: \.size).sink { seen.append("size \($0)") }
    let contrasts = heir.publisher(for: \.contrast).sink { seen.append("contrast \($0)") }
    root.size = 20
    root.contrast = 2
    heir.stopInheriting(\.size)
    #expect(seen == ["size 12", "contrast 1.0", "size 20", "contrast 2.0", "size 12"])
    sizes.cancel()
    contrasts.cancel()
  }

  @Test func keyPathsSpelledThroughAClassStillWork() {
    let root = DarkTheme()
    let heir = root.descendant()
    var sizes: [Int] = []
    let cancellable = heir.publisher(for: \Theme.size).sink { sizes.append($0) }
    heir.stopInheriting(\Theme.size)
    root.size = 30
    heir.resumeInheriting(\DarkTheme.size)
    #expect(heir.isInheriting(\Theme.size))
    #expect(sizes == [12, 30])
    cancellable.cancel()
  }

  @Test func insideASubclassSelfKeyPathsInferToo() {
    final class Card: Ancestor {
      @Inherited var title: String?
      func titles() -> AnyPublisher<String?, Never> { publisher(for: \.title) }
    }
    let card = Card()
    var titles: [String?] = []
    let cancellable = card.titles().sink { titles.append($0) }
    card.title = "hello"
    #expect(titles == [nil, "hello"])
    cancellable.cancel()
  }
}
