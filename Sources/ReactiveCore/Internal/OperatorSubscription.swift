/// The shared engine of operators that own a subscription: those that can end early
/// (`tryMap`, `first`, `prefix`), that emit a value at completion (`reduce`, `last`,
/// `replaceEmpty`), or that reshape demand (`collect(_:)`).
///
/// A subclass overrides ``step(_:)`` for each value and ``conclude(_:)`` for the upstream
/// completion. The engine keeps the status, the downstream and its outstanding demand
/// under ``lock``, and never holds the lock while calling upstream, downstream or a
/// subclass hook. A value due at completion waits for downstream demand.
///
/// Operators that consume the whole upstream (``consumesAll``) request unlimited values
/// on subscription; the others forward each downstream request upstream.
class OperatorSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = UpstreamFailure
  typealias DownstreamFailure = Downstream.Failure

  /// The lock that guards `status`, `downstream`, `demand` and `pending`.
  let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var pending: (Output?, Subscribers.Completion<DownstreamFailure>)?
  private let consumesAll: Bool
  /// Extra upstreams (a trigger publisher) to cancel with this one.
  @exclusivity(unchecked)
  private var companions: [any Cancellable] = []
  let description: String

  init(downstream: Downstream, consumesAll: Bool, name: String) {
    self.downstream = downstream
    self.consumesAll = consumesAll
    description = name
  }

  /// The operators for which Combine treats a request for zero values as no request.
  private static var acceptingZeroDemand: Set<String> {
    ["DropUntilOutput", "PrefixUntilOutput", "Output", "Encode", "Decode"]
  }

  // MARK: Hooks

  /// Decides what to do with one upstream value.
  func step(_ input: Input) -> OperatorStep<Output, DownstreamFailure> { fatalError("abstract") }

  /// The value (if any) and completion to send when upstream completes.
  func conclude(
    _ completion: Subscribers.Completion<UpstreamFailure>
  ) -> (Output?, Subscribers.Completion<DownstreamFailure>) {
    fatalError("abstract")
  }

  /// The upstream demand that a downstream demand stands for.
  func upstreamDemand(for demand: Subscribers.Demand) -> Subscribers.Demand { demand }

  // MARK: Subscriber

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else {
      subscription.cancel()
      return
    }
    target.receive(subscription: self)
    if consumesAll { subscription.request(.unlimited) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard
      let target = lock.withLock({ () -> Downstream? in
        guard case .subscribed = status else { return nil }
        return downstream
      })
    else { return .none }
    switch step(input) {
    case .emit(let output):
      let more = target.receive(output)
      lock.withLock { demand = demand - 1 + more }
      return consumesAll ? .none : upstreamDemand(for: more)
    case .drop:
      return consumesAll ? .none : .max(1)
    case .absorb:
      return .none
    case .emitAndFinish(let output):
      end(with: output, .finished)
    case .finish:
      end(with: nil, .finished)
    case .fail(let error):
      end(with: nil, .failure(error))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    let isSubscribed = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      status = .terminal
      return true
    }
    guard isSubscribed else { return }
    for other in lock.withLock({ takeCompanions() }) { other.cancel() }
    let (output, downstreamCompletion) = conclude(completion)
    deliver(output, downstreamCompletion)
  }

  /// Cancels `companion` whenever this operator ends or is cancelled.
  func bind(_ companion: any Cancellable) {
    let isLive = lock.withLock { () -> Bool in
      if case .terminal = status { return false }
      companions.append(companion)
      return true
    }
    if !isLive { companion.cancel() }
  }

  /// Takes the companions to cancel; call with the lock held.
  private func takeCompanions() -> [any Cancellable] {
    defer { companions = [] }
    return companions
  }

  /// Ends the operator from outside the value path (a trigger publisher fired): cancels
  /// upstream and completes downstream, once.
  func terminate(_ completion: Subscribers.Completion<DownstreamFailure>) {
    let isSubscribed = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      return true
    }
    if isSubscribed { end(with: nil, completion) }
  }

  /// Cancels upstream and sends the last value and completion.
  private func end(with output: Output?, _ completion: Subscribers.Completion<DownstreamFailure>) {
    let (upstream, others) = lock.withLock { () -> ((any Subscription)?, [any Cancellable]) in
      defer { status = .terminal }
      return (status.subscription, takeCompanions())
    }
    upstream?.cancel()
    for other in others { other.cancel() }
    deliver(output, completion)
  }

  /// Sends a final value and the completion, holding them until there is demand for the
  /// value.
  private func deliver(_ output: Output?, _ completion: Subscribers.Completion<DownstreamFailure>) {
    let target = lock.withLock { () -> Downstream? in
      if output != nil, demand == .none {
        pending = (output, completion)
        return nil
      }
      defer { downstream = nil }
      return downstream
    }
    guard let target else { return }
    if let output { _ = target.receive(output) }
    target.receive(completion: completion)
  }

  // MARK: Subscription

  func request(_ additional: Subscribers.Demand) {
    if additional == .none {
      // Combine traps on zero demand in the operators that filter or reduce, and lets it
      // pass (as no demand) in the others.
      if !Self.acceptingZeroDemand.contains(description) {
        preconditionFailure("API Violation: demand must not be zero")
      }
      return
    }
    let action = lock.withLock {
      () -> (Downstream, (Output?, Subscribers.Completion<DownstreamFailure>))?? in
      demand += additional
      if let pending, let downstream {
        self.pending = nil
        self.downstream = nil
        return .some((downstream, pending))
      }
      return .none
    }
    switch action {
    case .some(.some((let target, (let output, let completion)))):
      if let output { _ = target.receive(output) }
      target.receive(completion: completion)
    default:
      guard !consumesAll, let upstream = lock.withLock({ status.subscription }) else { return }
      upstream.request(upstreamDemand(for: additional))
    }
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, Downstream?, [any Cancellable]) in
      defer {
        status = .terminal
        downstream = nil
        pending = nil
      }
      return (status.subscription, downstream, takeCompanions())
    }
    taken.0?.cancel()
    for other in taken.2 { other.cancel() }
  }

  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
