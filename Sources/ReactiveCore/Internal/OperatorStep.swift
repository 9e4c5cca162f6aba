/// What an operator does with one upstream value.
@usableFromInline
enum OperatorStep<Output, Failure: Error> {
  /// Send this value downstream.
  case emit(Output)
  /// Skip the value; a forwarding operator asks upstream for one more in its place.
  case drop
  /// Keep the value without asking for another (the operator requested ahead).
  case absorb
  /// Send this value, then finish and cancel upstream.
  case emitAndFinish(Output)
  /// Finish now and cancel upstream.
  case finish
  /// Fail now and cancel upstream.
  case fail(Failure)
}
