import Ripple

// A port of AncestorKit's README to Ripple: AKAncestor becomes Ancestor.

final class Person: Ancestor {
  @Inherited var firstName: String?
  @Inherited var lastName: String?
  var fullName: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}

// Create ancestors and descendants
let arthur = Person()
arthur.firstName = "Arthur"
arthur.lastName = "Weasley"
print(arthur.fullName)  // "Arthur Weasley"

let bill = arthur.descendant()
bill.firstName = "William"
print(bill.fullName)  // "William Weasley"

let victoire = bill.descendant()
victoire.firstName = "Victoire"
print(victoire.fullName)  // "Victoire Weasley"
victoire.lastName = "Lupin"
print(victoire.fullName)  // "Victoire Lupin"

// Stopping inheritance
let tony = Person()
tony.firstName = "Silvio"
tony.lastName = "Ciccone"
print(tony.fullName)  // "Silvio Ciccone"
let madonna = tony.descendant()
madonna.firstName = "Madonna"
print(madonna.fullName)  // "Madonna Ciccone"
madonna.stopInheriting(\Person.lastName)
print(madonna.fullName)  // "Madonna"

// Permanently stopping inheritance: a plain property is never passed down.
final class Wizard: Ancestor {
  var firstName: String?
  @Inherited var lastName: String?
}
let james = Wizard()
james.firstName = "James"
james.lastName = "Potter"
let harry = james.descendant()
print("harry.firstName = \(harry.firstName ?? "nil")")  // nil
print("harry.lastName = \(harry.lastName ?? "nil")")  // "Potter"

// Primitive properties: no NSValue boxing, just a default at the root.
struct EdgeInsets: Equatable, Sendable {
  var top = 0.0
  var left = 0.0
  var bottom = 0.0
  var right = 0.0
  static let zero = EdgeInsets()
}
final class CollectionViewSectionAttributes: Ancestor {
  @Inherited var sectionInsets: EdgeInsets = .zero
}

// Change notifications: inherited values notify, shadowed ones never do.
let rootAttrs = CollectionViewSectionAttributes()
rootAttrs.sectionInsets = EdgeInsets(top: 15, left: 15, bottom: 15, right: 15)
let sectionAttrs = rootAttrs.descendant()
let observation = sectionAttrs.publisher(for: \CollectionViewSectionAttributes.sectionInsets).sink {
  print("sectionAttrs.sectionInsets is now top \($0.top)")
}
rootAttrs.sectionInsets = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)  // notifies
sectionAttrs.sectionInsets = EdgeInsets(top: 40, left: 0, bottom: 10, right: 0)  // notifies
rootAttrs.sectionInsets = EdgeInsets(top: 12, left: 12, bottom: 12, right: 12)  // shadowed: silent
observation.cancel()

// Opting out of change notifications from ancestors
let quiet = rootAttrs.descendant(inheritsChangeNotifications: false)
print("quiet descendant inherits top \(quiet.sectionInsets.top) without ancestor notifications")
