import ReactiveCore
import Testing

/// Every conditional `Equatable` conformance Combine declares on its `Publishers` types:
/// equal when their upstreams (and stored values) are. Each line compiles only because
/// the conformance exists.
@Suite struct EquatableConformanceTests {
  typealias E = Empty<Int, Never>
  let done = E()
  let open = E(completeImmediately: false)

  @Test func fanInPublishers() {
    #expect(Publishers.Merge(done, done) == Publishers.Merge(done, done))
    #expect(Publishers.Merge(done, done) != Publishers.Merge(done, open))
    #expect(Publishers.Merge3(done, done, done) == Publishers.Merge3(done, done, done))
    #expect(Publishers.Merge4(done, done, done, open) != Publishers.Merge4(done, done, done, done))
    #expect(
      Publishers.Merge5(done, done, done, done, done)
        == Publishers.Merge5(done, done, done, done, done))
    #expect(
      Publishers.Merge6(done, done, done, done, done, done)
        == Publishers.Merge6(done, done, done, done, done, done))
    #expect(
      Publishers.Merge7(done, done, done, done, done, done, done)
        == Publishers.Merge7(done, done, done, done, done, done, done))
    #expect(
      Publishers.Merge8(done, done, done, done, done, done, done, open)
        != Publishers.Merge8(done, done, done, done, done, done, done, done))
    #expect(Publishers.MergeMany([done, open]) == Publishers.MergeMany([done, open]))
    #expect(Publishers.MergeMany([done, open]) != Publishers.MergeMany([open, done]))
    #expect(Publishers.CombineLatest(done, open) == Publishers.CombineLatest(done, open))
    #expect(Publishers.CombineLatest(done, open) != Publishers.CombineLatest(open, open))
    #expect(
      Publishers.CombineLatest3(done, done, done) == Publishers.CombineLatest3(done, done, done))
    #expect(
      Publishers.CombineLatest4(done, done, done, open)
        != Publishers.CombineLatest4(done, done, done, done))
    #expect(Publishers.Zip(done, open) == Publishers.Zip(done, open))
    #expect(Publishers.Zip(done, open) != Publishers.Zip(open, done))
    #expect(Publishers.Zip3(done, done, done) == Publishers.Zip3(done, done, done))
    #expect(Publishers.Zip4(done, done, done, open) != Publishers.Zip4(done, done, done, done))
    #expect(Publishers.Concatenate(prefix: done, suffix: open) == done.append(open))
    #expect(Publishers.Concatenate(prefix: done, suffix: open) != open.append(done))
  }

  @Test func singleUpstreamOperators() {
    #expect(done.contains(1) == done.contains(1))
    #expect(done.contains(1) != done.contains(2))
    #expect(done.dropFirst(2) == done.dropFirst(2))
    #expect(done.dropFirst(2) != done.dropFirst(3))
    #expect(done.collect() == done.collect())
    #expect(done.collect() != open.collect())
    #expect(done.collect(2) == done.collect(2))
    #expect(done.collect(2) != done.collect(3))
    #expect(done.first() == done.first())
    #expect(done.last() != open.last())
    #expect(done.retry(1) == done.retry(1))
    #expect(done.retry(1) != done.retry(2))
    #expect(done.drop(untilOutputFrom: open) == done.drop(untilOutputFrom: open))
    #expect(done.drop(untilOutputFrom: open) != done.drop(untilOutputFrom: done))
    #expect(done.replaceError(with: 1) == done.replaceError(with: 1))
    #expect(done.replaceError(with: 1) != done.replaceError(with: 2))
    #expect(done.replaceEmpty(with: 1) == done.replaceEmpty(with: 1))
    #expect(done.replaceEmpty(with: 1) != done.replaceEmpty(with: 2))
    #expect(done.output(in: 1..<3) == done.output(in: 1..<3))
    #expect(done.output(at: 1) != done.output(at: 2))
  }
}
