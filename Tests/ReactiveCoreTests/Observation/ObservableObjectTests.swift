import ReactiveCore
import Testing

private final class Manager: ObservableObjectBase {
  @Published var reports = 0
}

private class ObservableObjectBase: ObservableObject {
  @Published var title = "none"
}

private final class Plain: ObservableObject {
  var count = 0
}

@Suite struct ObservableObjectTests {
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
}
