import ReactiveCore
import Testing

@Suite struct CombineIdentifierTests {
  // Mirrors as Combine's: what debuggers and OpenCombine's reflection tests see.
  @Test func anObjectsCombineIdentifierIsItsAddress() {
    let object = Token()
    let expected = "0x" + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    #expect(CombineIdentifier(object).description == expected)
  }
}
