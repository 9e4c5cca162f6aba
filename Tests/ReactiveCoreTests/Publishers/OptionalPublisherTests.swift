import ReactiveCore
import Testing

@Suite struct OptionalPublisherTests {
  @Test func optionalAndResultPublishers() {
    var received: [Int] = []
    _ = Optional(3).publisher.sink { received.append($0) }
    _ = Optional<Int>.none.publisher.sink { received.append($0) }
    _ = Result<Int, Never>.success(4).publisher.sink { received.append($0) }
    #expect(received == [3, 4])
    let failure = TrackingSubscriber<Int, TestError>()
    Result<Int, TestError>.failure(.oops).publisher.subscribe(failure)
    #expect(failure.completions == [.failure(.oops)])
  }

  // The declared types are the assertion: each line compiles only if the operator has
  // Combine's specialised return type.
  @Test func optionalOperatorsStayOptional() {
    let mapped: Optional<Int>.Publisher = Optional(2).publisher.map { $0 * 2 }
    #expect(mapped.output == 4)
    // Combine counts no value as no output at all, not as zero.
    let counted: Optional<Int>.Publisher = Optional<Int>.none.publisher.count()
    #expect(counted.output == nil)
    #expect(Optional(3).publisher.count().output == 1)
    #expect(Optional<Int>.none.publisher.allSatisfy { $0 > 0 }.output == nil)
    #expect(Optional<Int>.none.publisher.reduce(2, +).output == nil)
    // Combine answers replaceEmpty on an optional publisher with a `Just`.
    let replaced: Just<Int> = Optional<Int>.none.publisher.replaceEmpty(with: 7)
    #expect(replaced.output == 7)
    let collected: Optional<[Int]>.Publisher = Optional<Int>.none.publisher.collect()
    #expect(collected.output == [])
  }

  /// Combine's quirk, kept: an upper bound this close to `Int.max` traps; one less does not.
  @Test func optionalOutputInRangeTrapsOnAnUpperBoundNearIntMax() async {
    #expect(Optional(12).publisher.output(in: 0..<(.max - 2)) == Optional(12).publisher)
    await #expect(processExitsWith: .failure) {
      _ = Optional(12).publisher.output(in: 0..<(.max - 1))
    }
  }
}
