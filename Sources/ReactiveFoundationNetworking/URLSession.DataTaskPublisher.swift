import Foundation
import ReactiveCore

#if canImport(FoundationNetworking)
  // On Linux `URLSession` lives here, not in Foundation; importing it in this module only
  // is what keeps ReactiveCore's users from linking it.
  import FoundationNetworking
#endif

extension URLSession {
  /// Returns a publisher that wraps a URL session data task for a given URL.
  ///
  /// The publisher makes the request once its subscriber first asks for a value, then
  /// publishes the body and the response together and finishes, or fails with a
  /// `URLError`. An HTTP error status (such as 404) is a response, not a failure.
  ///
  ///     let url = URL(string: "https://example.com/")!
  ///     let cancellable = URLSession.shared.dataTaskPublisher(for: url)
  ///         .sink(receiveCompletion: { print($0) }) { print($0.data.count) }
  ///     // Prints the body's size, then "finished"
  ///
  /// - Parameter url: The URL for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL.
  public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  /// Returns a publisher that wraps a URL session data task for a given URL request.
  ///
  /// The publisher makes the request once its subscriber first asks for a value, then
  /// publishes the body and the response together and finishes, or fails with a
  /// `URLError`.
  ///
  ///     var request = URLRequest(url: URL(string: "https://example.com/")!)
  ///     request.httpMethod = "HEAD"
  ///     let cancellable = URLSession.shared.dataTaskPublisher(for: request)
  ///         .sink(receiveCompletion: { print($0) }) { print($0.response) }
  ///
  /// - Parameter request: The URL request for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL request.
  public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }

  /// A publisher that delivers the results of performing URL session data tasks.
  ///
  /// Each subscription runs its own data task, created and resumed on the subscriber's
  /// first demand (never before), so a publisher that nobody asks of makes no request.
  /// The subscription publishes one value, the body and the response, then finishes; or
  /// it fails with the task's `URLError`. Cancelling the subscription cancels its task,
  /// and nothing reaches the subscriber after the cancel returns.
  ///
  /// - Note: Thread-safe: `request(_:)` and `cancel()` may be called from any thread,
  ///   and the outcome is delivered once, on the session's delegate queue.
  /// - Note: On Linux, give the session a delegate queue that runs one operation at a time
  ///   (every session's own does). On a concurrent one, where swift-corelibs-foundation
  ///   could trap when a cancel meets the response, cancelling leaves a running task to
  ///   finish, and drops its outcome.
  public struct DataTaskPublisher: Publisher, Sendable {
    /// The kind of values published by this publisher: the body and the response.
    public typealias Output = (data: Data, response: URLResponse)
    /// The kind of errors this publisher might publish: the data task's error.
    public typealias Failure = URLError

    /// The URL request performed by the data task.
    public let request: URLRequest
    /// The URL session that performs the data task.
    public let session: URLSession

    /// Creates a data task publisher from the provided URL request and URL session.
    ///
    /// - Parameters:
    ///   - request: The URL request to perform.
    ///   - session: The URL session to perform the request.
    public init(request: URLRequest, session: URLSession) {
      self.request = request
      self.session = session
    }

    /// Attaches the subscriber; its data task starts on its first demand.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      subscriber.receive(
        subscription: DataTaskSubscription(
          downstream: subscriber, session: session, request: request))
    }
  }
}
