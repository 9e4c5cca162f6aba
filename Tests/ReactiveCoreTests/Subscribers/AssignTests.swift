import ReactiveCore
import Testing

/// `Subscribers.Assign` reflects as Combine's.
@Suite struct AssignTests {
  final class Box { var value = 0 }

  @Test func mirrorsObjectKeyPathAndStatus() {
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    #expect(assign.customMirror.children.map(\.label) == ["object", "keyPath", "status"])
    assign.cancel()
  }
}
