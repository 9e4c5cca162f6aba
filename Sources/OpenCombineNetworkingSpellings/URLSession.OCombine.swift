import Foundation
import ReactiveCore
import ReactiveFoundationNetworking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// OpenCombine's namespace for a session's publishers:
  /// `URLSession.OCombine(.shared).dataTaskPublisher(for:)` and
  /// `session.ocombine.dataTaskPublisher(for:)`.
  ///
  /// OpenCombine needed the namespace on Apple platforms, where Combine's
  /// `dataTaskPublisher(for:)` is declared too. Here it forwards to
  /// ReactiveFoundationNetworking's `URLSession.dataTaskPublisher(for:)`, and
  /// `URLSession.OCombine.DataTaskPublisher` *is* `URLSession.DataTaskPublisher`.
  ///
  ///     let url = URL(string: "https://example.com/")!
  ///     let cancellable = URLSession.OCombine(.shared).dataTaskPublisher(for: url)
  ///         .sink(receiveCompletion: { print($0) }) { print($0.data.count) }
  public struct OCombine: Sendable {
    /// The session whose data tasks the publishers run.
    public let session: URLSession

    /// Wraps `session`.
    ///
    /// - Parameter session: The session to run data tasks on.
    public init(_ session: URLSession) { self.session = session }

    /// The publisher of one data task's body and response: ReactiveFoundationNetworking's
    /// `URLSession.DataTaskPublisher`.
    public typealias DataTaskPublisher = URLSession.DataTaskPublisher

    /// Returns a publisher that wraps a data task for the URL, made on the first demand.
    ///
    /// - Parameter url: The URL for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
      session.dataTaskPublisher(for: url)
    }

    /// Returns a publisher that wraps a data task for the URL request, made on the first
    /// demand.
    ///
    /// - Parameter request: The URL request for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL request.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
      session.dataTaskPublisher(for: request)
    }
  }

  /// The session in OpenCombine's namespace: `session.ocombine` is
  /// `URLSession.OCombine(session)`.
  public var ocombine: OCombine { OCombine(self) }
}
