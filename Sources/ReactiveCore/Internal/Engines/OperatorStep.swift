/// What an operator does with one upstream value.
@usableFromInline
enum OperatorStep<Output, Failure: Error> {
  /// Send this value downstream.
  case emit(Output)
  /// Skip the value; a forwarding operator asks upstream for one more in its place.
  case drop
  /// Finish now and cancel upstream.
  case finish
  /// Fail now and cancel upstream.
  case fail(Failure)
}

extension OperatorStep {
  /// Runs a throwing body, turning a thrown error into ``fail(_:)``.
  @inlinable
  static func trying(_ body: () throws -> OperatorStep) -> OperatorStep where Failure == any Error {
    do { return try body() } catch { return .fail(error) }
  }
}
