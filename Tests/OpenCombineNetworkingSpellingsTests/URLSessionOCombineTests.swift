import Foundation
import OpenCombineNetworkingSpellings
import ReactiveCore
import ReactiveFoundationNetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.OCombine` hands out ReactiveFoundationNetworking's data task publisher.
@Suite struct URLSessionOCombineTests {
  @Test func theDataTaskPublisherIsFoundationNetworkingsUnderASecondName() {
    #expect(URLSession.OCombine.DataTaskPublisher.self == URLSession.DataTaskPublisher.self)
    let url = URL(string: "http://127.0.0.1:1/users")!
    let session = URLSession.shared
    #expect(URLSession.OCombine(session).session === session)
    #expect(session.ocombine.session === session)
    #expect(URLSession.OCombine(session).dataTaskPublisher(for: url).request.url == url)
    var request = URLRequest(url: url)
    request.httpMethod = "HEAD"
    let publisher = session.ocombine.dataTaskPublisher(for: request)
    #expect(publisher.request.httpMethod == "HEAD")
    #expect(publisher.session === session)
  }

  /// A refused connection (nothing listens on port 1) fails as the plain spelling does.
  /// The wait sleeps rather than blocking its thread, which Swift Testing's other tests
  /// (of every module) share.
  @Test func aRequestRunsAndFailsWithAURLError() async {
    let completion = LockedBox<Subscribers.Completion<URLError>?>(nil)
    let cancellable = URLSession.OCombine(.shared)
      .dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!)
      .sink(
        receiveCompletion: { received in completion.withLock { $0 = received } },
        receiveValue: { _ in })
    // 60 seconds at most, only as a guard against a hang: nothing here is timed.
    let deadline = ContinuousClock.now + .seconds(60)
    while completion.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(2))
    }
    guard case .failure = completion.withLock({ $0 }) else {
      Issue.record("expected a failure, got \(String(describing: completion.withLock { $0 }))")
      return
    }
    cancellable.cancel()
  }
}
