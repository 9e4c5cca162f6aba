import ReactiveCore

/// One event a publisher can send — a value, a failure or the finish — as a value of its
/// own, which `materialize()` produces and `dematerialize()` turns back into events.
public enum Event<Output, Failure: Error> {
  /// A value.
  case value(Output)
  /// The failure that ended the stream.
  case failure(Failure)
  /// The normal end of the stream.
  case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: Sendable where Output: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
  /// `value(1)`, `failure(someError)` or `finished`.
  public var description: String {
    switch self {
    case .value(let value): "value(\(value))"
    case .failure(let error): "failure(\(error))"
    case .finished: "finished"
    }
  }
}

/// A type that can be read as an ``Event``, so that operators on publishers of events
/// (`dematerialize()`, `values()`, `failures()`) accept it.
public protocol EventConvertible {
  /// The value type of the event.
  associatedtype Output
  /// The failure type of the event.
  associatedtype Failure: Error
  /// The event this value stands for.
  var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
  /// The event itself.
  public var event: Event<Output, Failure> { self }
}
