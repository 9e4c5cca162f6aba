import ReactiveCore

extension Result {
  /// OpenCombine's namespace for `Result`'s publisher: `Result<Int, Never>.OCombine.Publisher`
  /// and `result.ocombine.publisher`.
  ///
  /// OpenCombine needed the namespace on Apple platforms, where Combine declares
  /// `Result.Publisher` too and a bare `Result<Int, Never>.Publisher` is ambiguous. Code
  /// written against OpenCombine spells it this way, so ReactiveCore offers it: the
  /// publisher is ReactiveCore's own `Result.Publisher`, under a second name.
  ///
  ///     let cancellable = Result<Int, Never>.success(1).ocombine.publisher
  ///         .sink { print($0) }
  ///     // Prints "1"
  public struct OCombine {
    /// The result this namespace publishes.
    private let result: Result

    /// Wraps `result`; reached through ``Swift/Result/ocombine``.
    fileprivate init(_ result: Result) { self.result = result }

    /// A publisher that publishes the result's value once and finishes, or fails:
    /// ReactiveCore's `Result.Publisher`.
    public typealias Publisher = Result<Success, Failure>.Publisher

    /// A publisher of the result: its value once, then finished; or its failure.
    public var publisher: Publisher { Publisher(result) }
  }

  /// OpenCombine's spelling of the result's publisher: `result.ocombine.publisher` is
  /// `result.publisher`.
  public var ocombine: OCombine { OCombine(self) }
}

extension Result.OCombine: Sendable where Success: Sendable, Failure: Sendable {}
