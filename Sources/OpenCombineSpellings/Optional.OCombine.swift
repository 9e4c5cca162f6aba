import ReactiveCore

extension Optional {
  /// OpenCombine's namespace for `Optional`'s publisher: `Optional<Int>.OCombine.Publisher`
  /// and `optional.ocombine.publisher`.
  ///
  /// OpenCombine needed the namespace on Apple platforms, where Combine declares
  /// `Optional.Publisher` too. Code written against OpenCombine spells it this way, so
  /// ReactiveCore offers it: the publisher is ReactiveCore's own `Optional.Publisher`,
  /// under a second name.
  ///
  ///     let cancellable = Optional(3).ocombine.publisher.sink { print($0) }
  ///     // Prints "3"
  public struct OCombine {
    /// The optional this namespace publishes.
    private let optional: Wrapped?

    /// Wraps `optional`; reached through ``Swift/Optional/ocombine``.
    fileprivate init(_ optional: Wrapped?) { self.optional = optional }

    /// A publisher that publishes the optional's value once, if it has one, and
    /// finishes: ReactiveCore's `Optional.Publisher`.
    public typealias Publisher = Optional<Wrapped>.Publisher

    /// A publisher of the optional: its value once, if any, then finished.
    public var publisher: Publisher { Publisher(optional) }
  }

  /// OpenCombine's spelling of the optional's publisher: `optional.ocombine.publisher` is
  /// `optional.publisher`.
  public var ocombine: OCombine { OCombine(self) }
}

extension Optional.OCombine: Sendable where Wrapped: Sendable {}
