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
  @Test func aRequestRunsAndFailsWithAURLError() {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedBox<URLError?>(nil)
    let cancellable = URLSession.OCombine(.shared)
      .dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!)
      .sink(
        receiveCompletion: {
          if case .failure(let error) = $0 { failure.withLock { $0 = error } }
          done.signal()
        }, receiveValue: { _ in })
    #expect(done.wait(timeout: .now() + 60) == .success)
    #expect(failure.withLock { $0 } != nil)
    cancellable.cancel()
  }
}
