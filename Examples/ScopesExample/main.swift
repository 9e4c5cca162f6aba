import Ripple

// A port of ScopeKit's README to Ripple.

let events = PassthroughSubject<String, Never>()

final class MyBehavior: Behavior {
  override func willAttach() { print("MyBehavior.willAttach") }
  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    print("MyBehavior.willActivate")
    events
      .sink { print("MyBehavior heard: \($0)") }  // work scoped to the behavior's active state
      .store(in: &cancellables)
  }
  override func didDeactivate() { print("MyBehavior.didDeactivate") }
  override func didDetach() { print("MyBehavior.didDetach") }
}

final class MyLeafScope: Scope {}
final class MyMiddleScope: Scope {}

// RootScope: a non-subclassable, always active root for a scope tree.
let leafScope = MyLeafScope()
print("leafScope is .\(leafScope.state)")  // .detached
let middleScope = MyMiddleScope()
try leafScope.attach(to: middleScope)
print("leafScope is .\(leafScope.state)")  // .attached, not .active
let rootScope = RootScope()
try middleScope.attach(to: rootScope)
print("leafScope is .\(leafScope.state)")  // .active: it has started its work

// A behavior on the leaf.
let behavior = MyBehavior()
try behavior.attach(to: leafScope)
events.send("first event")

// AnonymousBehavior: willActivate passed in the initializer.
try AnonymousBehavior { cancellables in
  events
    .sink { value in print("AnonymousBehavior: \(value)") }
    .store(in: &cancellables)
}.attach(to: middleScope)
events.send("second event")

// CancellableReceiver: bind a subscription to a scope's activity.
events
  .sink { _ in print("this print can only happen as long as middleScope is .active.") }
  .store(in: middleScope.whileActiveReceiver)
events.send("third event")

// Deactivating the middle scope stops everything below it, bottom-up.
middleScope.detach()
print("leafScope is .\(leafScope.state)")  // .attached
events.send("nobody hears this")

// Misuse throws and changes nothing.
do {
  try middleScope.attach(to: leafScope)
} catch {
  print("error: \(error)")
}
print(rootScope.debugDescription)
