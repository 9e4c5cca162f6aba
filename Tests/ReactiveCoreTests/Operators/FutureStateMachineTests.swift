import Testing

@testable import ReactiveCore

/// The decisions of ``FutureStateMachine`` and ``FutureSubscriptionStateMachine`` on their
/// own: who is told the result, and when a subscriber gets it.
@Suite struct FutureStateMachineTests {
  /// A subscription waiting for the result, recording it.
  final class Waiter: FutureWaiter {
    /// The results it was told.
    var results: [Result<Int, TestError>] = []
    func fulfill(_ result: Result<Int, TestError>) { results.append(result) }
  }

  @Test func onlyThePromisesFirstCallCountsAndReachesTheWaitingSubscriptions() {
    var machine = FutureStateMachine<Int, TestError>()
    let kept = Waiter()
    let removed = Waiter()
    guard case .wait = machine.subscribed(kept), case .wait = machine.subscribed(removed) else {
      Issue.record("subscriptions wait for the result")
      return
    }
    machine.remove(removed)
    guard case .notify(let waiting) = machine.fulfill(.success(1)) else {
      Issue.record("the first call tells the waiting subscriptions")
      return
    }
    #expect(waiting.map { ObjectIdentifier($0) } == [ObjectIdentifier(kept)])
    guard case .ignore = machine.fulfill(.success(2)),
      case .fulfill(.success(1)) = machine.subscribed(Waiter())
    else {
      Issue.record("later calls are ignored; a late subscriber gets the first result")
      return
    }
  }

  @Test func aValueWaitsForDemandButAFailureDoesNot() {
    let future = Future<Int, TestError> { _ in }
    var value = FutureSubscriptionStateMachine(
      parent: future,
      downstream: Subscribers.Sink<Int, TestError>(receiveCompletion: { _ in }) { _ in })
    guard case .wait = value.resultArrived(.success(1)),
      case .deliver(.success(1), _) = value.demandArrived()
    else {
      Issue.record("a value goes out once there is demand")
      return
    }
    // A result already there when demand came keeps the future, until the subscription goes.
    #expect(value.parent != nil && value.downstream == nil)
    var failure = FutureSubscriptionStateMachine(
      parent: future,
      downstream: Subscribers.Sink<Int, TestError>(receiveCompletion: { _ in }) { _ in })
    guard case .deliver(.failure(.oops), _) = failure.resultArrived(.failure(.oops)) else {
      Issue.record("a failure goes out without demand")
      return
    }
    guard case .cancel(nil, leaving: .some(_)) = failure.cancelled() else {
      Issue.record("a cancel after delivery only leaves the future")
      return
    }
  }
}
