import ReactiveCore
import Testing

private final class Employee: ObservableObject {
  @Published var role = "dev"
}

@Suite struct PublishedTests {
  private final class Model {
    @Published var state = 0
  }

  @Test func projectedPublisherEmitsCurrentThenNewValuesBeforeTheChange() {
    let contact = Contact()
    var seen: [(Int, Int)] = []
    let cancellable = contact.$age.sink { seen.append(($0, contact.age)) }
    contact.age = 22
    contact.age = 23
    #expect(seen.map(\.0) == [21, 22, 23])
    #expect(seen.map(\.1) == [21, 21, 22])  // willSet: the property still holds the old value
    #expect(contact.age == 23)
    cancellable.cancel()
  }

  @Test func assignToPublished() {
    let employee = Employee()
    let subject = PassthroughSubject<String, Never>()
    var willChange = 0
    let cancellable = employee.objectWillChange.sink { willChange += 1 }
    subject.assign(to: &employee.$role)
    subject.send("lead")
    #expect(employee.role == "lead")
    #expect(willChange == 1)
    cancellable.cancel()
  }

  @Test func assignToPublishedDoesNotRetainTheObject() {
    weak var weakEmployee: Employee?
    let subject = PassthroughSubject<String, Never>()
    do {
      let employee = Employee()
      weakEmployee = employee
      subject.assign(to: &employee.$role)
    }
    #expect(weakEmployee == nil)
  }

  // What subject subscriptions show in their mirror and description.
  @Test func publishedAndObjectWillChangeNameTheirOwnSubjects() {
    final class Model: ObservableObject {
      @Published var count = 0
    }
    let model = Model()
    let published = TrackingSubscriber<Int, Never>()
    model.$count.subscribe(published)
    #expect(published.events.first == .subscription("PublishedSubject"))
    let willChange = LockedBox<String?>(nil)
    model.objectWillChange.subscribe(
      AnySubscriber<Void, Never>(
        receiveSubscription: { subscription in willChange.withLock { $0 = "\(subscription)" } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    #expect(willChange.withLock { $0 } == "ObservableObjectPublisher")
  }

  // A subject with a current value owes it to a subscriber that missed it for want of
  // demand, as Combine's `CurrentValueSubject` and `@Published` do.
  @Test func aPublishedPropertyDeliversItsLatestValueOnDemand() {
    let model = Model()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    model.$state.subscribe(tracking)
    model.state += 1
    model.state += 2
    model.state += 3
    #expect(tracking.values == [0, 1])
    tracking.request(.max(10))
    #expect(tracking.values == [0, 1, 6])
  }
}
