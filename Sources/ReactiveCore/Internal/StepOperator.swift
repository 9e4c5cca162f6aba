/// An ``OperatorSubscription`` whose hooks are closures, so each operator states only its
/// own logic. The closures are created per subscription and may capture mutable state:
/// upstream never delivers to one subscriber concurrently, so that state needs no lock.
final class StepOperator<Input, UpstreamFailure: Error, Downstream: Subscriber>:
  OperatorSubscription<Input, UpstreamFailure, Downstream>, @unchecked Sendable
{
  private let onStep: (Input) -> OperatorStep<Downstream.Input, Downstream.Failure>
  private let onConclude:
    (Subscribers.Completion<UpstreamFailure>) -> (
      Downstream.Input?, Subscribers.Completion<Downstream.Failure>
    )
  private let demandScale: Int

  init(
    _ name: String, downstream: Downstream, consumesAll: Bool = false, demandScale: Int = 1,
    step: @escaping (Input) -> OperatorStep<Downstream.Input, Downstream.Failure>,
    conclude:
      @escaping (Subscribers.Completion<UpstreamFailure>) -> (
        Downstream.Input?, Subscribers.Completion<Downstream.Failure>
      )
  ) {
    onStep = step
    onConclude = conclude
    self.demandScale = demandScale
    super.init(downstream: downstream, consumesAll: consumesAll, name: name)
  }

  override func step(_ input: Input) -> OperatorStep<Downstream.Input, Downstream.Failure> {
    onStep(input)
  }

  override func conclude(
    _ completion: Subscribers.Completion<UpstreamFailure>
  ) -> (Downstream.Input?, Subscribers.Completion<Downstream.Failure>) {
    onConclude(completion)
  }

  override func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand {
    demandScale == 1 ? demand : demand * demandScale
  }
}

extension StepOperator where UpstreamFailure == Downstream.Failure {
  /// An operator that passes the upstream completion through unchanged.
  convenience init(
    _ name: String, downstream: Downstream, consumesAll: Bool = false,
    step: @escaping (Input) -> OperatorStep<Downstream.Input, Downstream.Failure>
  ) {
    self.init(name, downstream: downstream, consumesAll: consumesAll, step: step) { (nil, $0) }
  }
}

extension StepOperator where Downstream.Failure == any Error {
  /// An operator whose closure may throw: the upstream failure is passed on as
  /// `any Error`.
  convenience init(
    throwing name: String, downstream: Downstream, consumesAll: Bool = false,
    step: @escaping (Input) -> OperatorStep<Downstream.Input, any Error>
  ) {
    self.init(name, downstream: downstream, consumesAll: consumesAll, step: step) {
      (nil, $0.eraseError)
    }
  }
}

extension OperatorStep {
  /// Runs a throwing body, turning a thrown error into ``fail(_:)``.
  @inlinable
  static func trying(_ body: () throws -> OperatorStep) -> OperatorStep where Failure == any Error {
    do { return try body() } catch { return .fail(error) }
  }
}
