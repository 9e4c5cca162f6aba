import ReactiveCore
import Testing

private final class Contact: ObservableObject {
  @Published var name = "Ann"
  @Published var age = 21
}

private final class Employee: ObservableObject {
  @Published var role = "dev"
}

private final class Manager: ObservableObjectBase {
  @Published var reports = 0
}

private class ObservableObjectBase: ObservableObject {
  @Published var title = "none"
}

private final class Plain: ObservableObject {
  var count = 0
}

@Suite struct PublishedTests {
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

  @Test func objectWillChangeFiresBeforeAnyPublishedChange() {
    let contact = Contact()
    var log: [String] = []
    let cancellable = contact.objectWillChange.sink {
      log.append("will change from \(contact.name)")
    }
    contact.name = "Bo"
    contact.age = 30
    #expect(log == ["will change from Ann", "will change from Bo"])
    #expect(contact.objectWillChange === contact.objectWillChange)
    cancellable.cancel()
  }

  @Test func objectWillChangeCoversSuperclassProperties() {
    let manager = Manager()
    var count = 0
    let cancellable = manager.objectWillChange.sink { count += 1 }
    manager.title = "lead"
    manager.reports = 3
    #expect(count == 2)
    cancellable.cancel()
  }

  @Test func objectWithoutPublishedPropertiesHasAStablePublisher() {
    let plain = Plain()
    #expect(plain.objectWillChange === plain.objectWillChange)
    var fired = false
    let cancellable = plain.objectWillChange.sink { fired = true }
    plain.objectWillChange.send()
    #expect(fired)
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
}
