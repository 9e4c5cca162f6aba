import Lineage
import ReactiveCore
import Testing

@Suite struct SeedExampleTests {
  @Test func weasleys() {
    let arthur = Person()
    arthur.firstName = "Arthur"
    arthur.lastName = "Weasley"
    #expect(arthur.fullName == "Arthur Weasley")
    let bill = arthur.descendant()
    bill.firstName = "William"
    #expect(bill.fullName == "William Weasley")
    let victoire = bill.descendant()
    victoire.firstName = "Victoire"
    #expect(victoire.fullName == "Victoire Weasley")
    victoire.lastName = "Lupin"
    #expect(victoire.fullName == "Victoire Lupin")
    #expect(bill.fullName == "William Weasley")
  }

  @Test func ciccones() {
    let tony = Person()
    tony.firstName = "Silvio"
    tony.lastName = "Ciccone"
    #expect(tony.fullName == "Silvio Ciccone")
    let madonna = tony.descendant()
    madonna.firstName = "Madonna"
    #expect(madonna.fullName == "Madonna Ciccone")
    madonna.stopInheriting(\Person.lastName)
    #expect(madonna.fullName == "Madonna")
    #expect(!madonna.isInheriting(\Person.lastName))
    madonna.resumeInheriting(\Person.lastName)
    #expect(madonna.fullName == "Madonna Ciccone")
  }

  @Test func pottersPassOnlyInheritedProperties() {
    let james = Wizard()
    james.firstName = "James"
    james.lastName = "Potter"
    let harry = james.descendant()
    #expect(harry.firstName == nil)
    #expect(harry.lastName == "Potter")
  }

  @Test func primitivePropertiesWithARootDefault() {
    let root = SectionAttributes()
    #expect(root.insets == .zero)
    root.insets = Insets(top: 15, left: 15)
    let section = root.descendant()
    #expect(section.insets == Insets(top: 15, left: 15))
    section.columns = 3
    #expect(root.columns == 1)
    #expect(section.descendant().columns == 3)
  }
}

@Suite struct InheritanceRuleTests {
  @Test func settingNilResumesInheriting() {
    let parent = Person()
    parent.lastName = "Black"
    let child = parent.descendant()
    child.lastName = "White"
    #expect(child.lastName == "White")
    #expect(!child.isInheriting(\Person.lastName))
    child.lastName = nil
    #expect(child.lastName == "Black")
    #expect(child.isInheriting(\Person.lastName))
  }

  @Test func resumeClearsAnOwnNonOptionalValue() {
    let root = SectionAttributes()
    root.columns = 2
    let child = root.descendant()
    child.columns = 5
    child.resumeInheriting(\SectionAttributes.columns)
    #expect(child.columns == 2)
  }

  @Test func stoppedNonOptionalReadsTheDefault() {
    let root = SectionAttributes()
    root.columns = 4
    let child = root.descendant()
    child.stopInheriting(\SectionAttributes.columns)
    #expect(child.columns == 1)
    #expect(child.descendant().columns == 1)
  }

  @Test func changesUpTheChainShowThroughThreeLevels() {
    let a = Person()
    let b = a.descendant()
    let c = b.descendant()
    #expect(c.lastName == nil)
    a.lastName = "One"
    #expect(c.lastName == "One")
    b.lastName = "Two"
    #expect(c.lastName == "Two")
    b.lastName = nil
    #expect(c.lastName == "One")
  }

  @Test func reparentMovesAndRefuses_cycles() throws {
    let smiths = Person()
    smiths.lastName = "Smith"
    let joneses = Person()
    joneses.lastName = "Jones"
    let kid = smiths.descendant()
    let grandkid = kid.descendant()
    try kid.reparent(to: joneses)
    #expect(grandkid.lastName == "Jones")
    #expect(kid.ancestor === joneses)
    #expect(throws: LineageError.self) { try kid.reparent(to: grandkid) }
    #expect(throws: LineageError.self) { try kid.reparent(to: kid) }
    #expect(kid.ancestor === joneses)
    #expect(grandkid.lastName == "Jones")
    try kid.reparent(to: nil)
    #expect(kid.ancestor == nil)
    #expect(grandkid.lastName == nil)
    let error = LineageError.cycle(instance: "Person", proposedAncestor: "Person")
    #expect(error.description.contains("nothing changed"))
  }

  @Test func initWithAncestor() {
    let parent = Person()
    parent.lastName = "Stone"
    let child = Person(ancestor: parent)
    #expect(child.lastName == "Stone")
    #expect(child.ancestor === parent)
  }

  @Test func deepChainReadsResolveAndInvalidate() {
    let root = SectionAttributes()
    var node = root
    for _ in 0..<64 { node = node.descendant() }
    #expect(node.columns == 1)
    root.columns = 9
    #expect(node.columns == 9)
    root.columns = 10
    #expect(node.columns == 10)
  }

  @Test func readsSkipAnAncestorOfAnotherClass() throws {
    let grandparent = Person()
    grandparent.lastName = "Lovegood"
    let plain = Ancestor(ancestor: grandparent)
    let child = Person(ancestor: plain)
    #expect(child.lastName == "Lovegood")
    grandparent.lastName = "Scamander"
    #expect(child.lastName == "Scamander")
  }

  @Test func middleInstancesNeverReadStillPassChangesDown() {
    let root = SectionAttributes()
    let middle = root.descendant()
    let leaf = middle.descendant()
    #expect(leaf.columns == 1)
    middle.stopInheriting(\SectionAttributes.columns)
    root.columns = 4
    #expect(leaf.columns == 1)
    middle.resumeInheriting(\SectionAttributes.columns)
    #expect(leaf.columns == 4)
    #expect(middle.isInheriting(\SectionAttributes.insets))
  }
}

@Suite struct ChangeNotificationTests {
  @Test func emitsCurrentThenChangesThroughThreeLevels() {
    let a = Person()
    a.lastName = "A"
    let b = a.descendant()
    let c = b.descendant()
    var seen: [String?] = []
    let cancellable = c.publisher(for: \Person.lastName).sink { seen.append($0) }
    a.lastName = "A2"
    b.lastName = "B"
    a.lastName = "A3"  // shadowed by b: no notification
    c.lastName = "C"
    b.lastName = "B2"  // shadowed by c
    #expect(seen == ["A", "A2", "B", "C"])
    cancellable.cancel()
  }

  @Test func equalValuesAreNotRepeated() {
    let a = Person()
    a.lastName = "Same"
    let b = a.descendant()
    var seen: [String?] = []
    let cancellable = b.publisher(for: \Person.lastName).sink { seen.append($0) }
    b.lastName = "Same"  // own value equal to the inherited one: nothing observable
    a.lastName = "Same"
    b.lastName = nil
    #expect(seen == ["Same"])
    cancellable.cancel()
  }

  @Test func stopAndResumeNotifyWhenTheValueChanges() {
    let tony = Person()
    tony.lastName = "Ciccone"
    let madonna = tony.descendant()
    var seen: [String?] = []
    let cancellable = madonna.publisher(for: \Person.lastName).sink { seen.append($0) }
    madonna.stopInheriting(\Person.lastName)
    madonna.resumeInheriting(\Person.lastName)
    #expect(seen == ["Ciccone", nil, "Ciccone"])
    cancellable.cancel()
  }

  @Test func optOutDescendantsHearOnlyTheirOwnChanges() {
    let root = SectionAttributes()
    let quiet = root.descendant(inheritsChangeNotifications: false)
    var seen: [Int] = []
    let cancellable = quiet.publisher(for: \SectionAttributes.columns).sink { seen.append($0) }
    root.columns = 2
    #expect(quiet.columns == 2)  // the value still inherits
    quiet.columns = 7
    #expect(seen == [1, 7])
    cancellable.cancel()
  }

  @Test func reparentNotifiesChangedValues() throws {
    let first = Person()
    first.lastName = "First"
    let second = Person()
    second.lastName = "Second"
    let child = first.descendant()
    var seen: [String?] = []
    let cancellable = child.publisher(for: \Person.lastName).sink { seen.append($0) }
    try child.reparent(to: second)
    #expect(seen == ["First", "Second"])
    cancellable.cancel()
  }
}

@Suite struct LineageMemoryTests {
  @Test func droppedDescendantIsReleasedAndStopsBeingNotified() {
    let root = Person()
    weak var weakChild: Person?
    var seen: [String?] = []
    var cancellable: AnyCancellable?
    do {
      let child = root.descendant()
      weakChild = child
      cancellable = child.publisher(for: \Person.lastName).sink { seen.append($0) }
    }
    #expect(weakChild == nil)
    root.lastName = "Later"
    #expect(seen == [nil])
    _ = cancellable
  }

  @Test func descendantsKeepTheirAncestorAlive() {
    weak var weakRoot: Person?
    let child: Person
    do {
      let root = Person()
      root.lastName = "Kept"
      weakRoot = root
      child = root.descendant()
    }
    #expect(weakRoot != nil)
    #expect(child.lastName == "Kept")
  }
}

/// A property declared in a superclass, spelled through a subclass: `\Sorcerer.lastName`
/// is a different key path from `\Founder.lastName`, yet the same property.
class Founder: Ancestor {
  @Inherited var lastName: String?
}

final class Sorcerer: Founder {}

@Suite struct SubclassKeyPathTests {
  @Test func aKeyPathSpelledThroughASubclassPublishesEveryChange() {
    let godric = Sorcerer()
    let harry = godric.descendant()
    var throughSubclass: [String?] = []
    var throughDeclaringClass: [String?] = []
    let subclass = harry.publisher(for: \Sorcerer.lastName).sink { throughSubclass.append($0) }
    let declaring = harry.publisher(for: \Founder.lastName).sink {
      throughDeclaringClass.append($0)
    }
    godric.lastName = "Gryffindor"
    harry.lastName = "Potter"
    #expect(throughSubclass == [nil, "Gryffindor", "Potter"])
    #expect(throughDeclaringClass == [nil, "Gryffindor", "Potter"])
    subclass.cancel()
    declaring.cancel()
  }

  @Test func stoppingAndResumingThroughASubclassKeyPath() {
    let godric = Sorcerer()
    godric.lastName = "Gryffindor"
    let harry = godric.descendant()
    var seen: [String?] = []
    let cancellable = harry.publisher(for: \Sorcerer.lastName).sink { seen.append($0) }
    harry.stopInheriting(\Sorcerer.lastName)
    #expect(harry.lastName == nil)
    #expect(!harry.isInheriting(\Sorcerer.lastName))
    harry.resumeInheriting(\Sorcerer.lastName)
    #expect(harry.lastName == "Gryffindor")
    #expect(harry.isInheriting(\Founder.lastName))
    #expect(seen == ["Gryffindor", nil, "Gryffindor"])
    cancellable.cancel()
  }
}
