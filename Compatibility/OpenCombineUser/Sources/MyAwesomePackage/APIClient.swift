import Foundation
import OpenCombine
import OpenCombineDispatch
import OpenCombineFoundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A networking client as OpenCombine code writes one: requests through
/// `URLSession.OCombine`, results delivered on a queue through `DispatchQueue.OCombine`.
public struct APIClient {
  public let baseURL: URL
  public let session: URLSession
  public let deliveryQueue: DispatchQueue

  public init(baseURL: URL, session: URLSession = .shared, deliveryQueue: DispatchQueue) {
    self.baseURL = baseURL
    self.session = session
    self.deliveryQueue = deliveryQueue
  }

  /// The body at `path`, delivered on the delivery queue.
  public func data(at path: String) -> AnyPublisher<Data, URLError> {
    var request = URLRequest(url: baseURL.appendingPathComponent(path))
    request.httpMethod = "GET"
    return URLSession.OCombine(session).dataTaskPublisher(for: request)
      .map(\.data)
      .receive(on: DispatchQueue.OCombine(deliveryQueue))
      .eraseToAnyPublisher()
  }

  /// The raw publisher, through the accessor spelling.
  public func response(at path: String) -> URLSession.OCombine.DataTaskPublisher {
    session.ocombine.dataTaskPublisher(for: baseURL.appendingPathComponent(path))
  }

  /// The spelling OpenCombine offers on Linux, where Combine does not exist.
  public func plainResponse(at path: String) -> URLSession.DataTaskPublisher {
    session.dataTaskPublisher(for: baseURL.appendingPathComponent(path))
  }
}

/// Namespaced publishers of a value, as OpenCombine spells them.
public enum Cache {
  public static func cachedCount() -> Result<Int, Never>.OCombine.Publisher {
    Result<Int, Never>.success(3).ocombine.publisher
  }

  public static func cachedName(_ name: String?) -> Optional<String>.OCombine.Publisher {
    name.ocombine.publisher
  }

  public static func failing() -> Result<Int, URLError>.OCombine.Publisher {
    Result<Int, URLError>.OCombine.Publisher(URLError(.badURL))
  }
}

/// Schedulers through OpenCombine's wrappers.
public enum Schedulers {
  public static func debounced<P: Publisher>(
    _ upstream: P, on queue: DispatchQueue
  ) -> Publishers.Debounce<P, DispatchQueue.OCombine> {
    let interval: DispatchQueue.OCombine.SchedulerTimeType.Stride = .milliseconds(1)
    return upstream.debounce(for: interval, scheduler: queue.ocombine)
  }

  public static func onRunLoop<P: Publisher>(
    _ upstream: P
  ) -> Publishers.ReceiveOn<P, RunLoop.OCombine> {
    upstream.receive(on: RunLoop.main.ocombine)
  }

  public static func onOperationQueue<P: Publisher>(
    _ upstream: P, _ queue: OperationQueue
  ) -> Publishers.ReceiveOn<P, OperationQueue.OCombine> {
    upstream.receive(on: OperationQueue.OCombine(queue))
  }
}
