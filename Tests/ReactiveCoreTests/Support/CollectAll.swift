import ReactiveCore

/// Runs `publisher` to completion with unlimited demand and returns what arrived.
func collectAll<P: Publisher>(_ publisher: P) -> ([P.Output], [Subscribers.Completion<P.Failure>]) {
  var values: [P.Output] = []
  var completions: [Subscribers.Completion<P.Failure>] = []
  let cancellable = publisher.sink(
    receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
  cancellable.cancel()
  return (values, completions)
}
