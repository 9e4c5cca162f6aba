import Foundation
import ReactiveCore
import Testing

/// An object to assign to.
final class Target: @unchecked Sendable {
  var value = 0
}

/// A model whose published property and `objectWillChange` are subscribed to.
final class Model: ObservableObject, @unchecked Sendable {
  @Published var count = 0
  @Published var mirror = 0
}

/// The subscriber, cancellable and observation rows of the lifetime table
/// (`<doc:Lifetimes>`).
@Suite struct SubscriberLifetimeTests {
  /// `Sink` keeps its closures until the completion or a cancel (Combine's lets go of
  /// them at both), and its subscription until a cancel or the completion.
  @Test(arguments: Ending.allCases)
  func sinkLetsGoOfItsClosures(_ ending: Ending) {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakToken: Token?
    let sink: Subscribers.Sink<Int, TestError>
    do {
      let token = Token()
      weakToken = token
      sink = Subscribers.Sink(
        receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    subject.subscribe(sink)
    #expect(weakToken != nil)
    switch ending {
    case .cancel: sink.cancel()
    case .finish: subject.send(completion: .finished)
    case .failure: subject.send(completion: .failure(.oops))
    }
    #expect(weakToken == nil)
  }

  /// `Assign` keeps its object strongly (the cycle `assign(to:on: self)` is known for),
  /// until the completion or a cancel.
  @Test(arguments: Ending.allCases)
  func assignKeepsItsObjectUntilTheEnd(_ ending: Ending) {
    let subject = PassthroughSubject<Int, TestError>()
    weak var weakTarget: Target?
    var cancellable: AnyCancellable?
    do {
      let target = Target()
      weakTarget = target
      cancellable = subject.replaceError(with: 0).assign(to: \.value, on: target)
    }
    subject.send(3)
    #expect(weakTarget?.value == 3)
    switch ending {
    case .cancel: cancellable?.cancel()
    case .finish: subject.send(completion: .finished)
    case .failure: subject.send(completion: .failure(.oops))
    }
    #expect(weakTarget == nil)
    _ = cancellable
  }

  /// `AnyCancellable` keeps what it cancels until it cancels, then lets go; its `deinit`
  /// cancels.
  @Test func anyCancellableLetsGoAtCancelAndCancelsAtDeinit() {
    weak var weakToken: Token?
    var cancelled = 0
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = AnyCancellable {
        _ = token
        cancelled += 1
      }
    }
    #expect(weakToken != nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
    #expect(cancelled == 1)
    cancellable = nil
    #expect(cancelled == 1)
    do {
      var other: AnyCancellable? = AnyCancellable { cancelled += 1 }
      _ = other
      other = nil
    }
    #expect(cancelled == 2)
  }

  /// `AnySubscriber` keeps the subscriber it wraps for as long as it lives.
  @Test func anySubscriberKeepsWhatItWraps() {
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    var erased: AnySubscriber<Int, TestError>?
    do {
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      erased = AnySubscriber(subscriber)
    }
    #expect(weakSubscriber != nil)
    erased = nil
    #expect(weakSubscriber == nil)
    _ = erased
  }

  /// A subscription to `$property` keeps the property's publisher, not the object; it
  /// ends when the object goes, as in Combine.
  @Test func publishedDoesNotKeepItsObject() {
    weak var weakModel: Model?
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    var values: [Int] = []
    do {
      let model = Model()
      weakModel = model
      let token = Token()
      weakToken = token
      cancellable = model.$count.sink {
        _ = token
        values.append($0)
      }
      model.count = 1
    }
    #expect(values == [0, 1])
    #expect(weakModel == nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
  }

  /// `objectWillChange` does not keep its object either.
  @Test func objectWillChangeDoesNotKeepItsObject() {
    weak var weakModel: Model?
    var cancellable: AnyCancellable?
    do {
      let model = Model()
      weakModel = model
      cancellable = model.objectWillChange.sink { _ in }
    }
    #expect(weakModel == nil)
    cancellable?.cancel()
  }

  /// `assign(to: &$property)` keeps neither object: the subscription lives in the
  /// property and ends when the object goes, letting go of the upstream.
  @Test func assignToPublishedEndsWithTheObject() {
    weak var weakModel: Model?
    weak var weakUpstream: PassthroughSubject<Int, Never>?
    do {
      let model = Model()
      weakModel = model
      let upstream = PassthroughSubject<Int, Never>()
      weakUpstream = upstream
      upstream.assign(to: &model.$mirror)
      upstream.send(4)
      #expect(model.mirror == 4)
    }
    #expect(weakModel == nil)
    #expect(weakUpstream == nil)
  }

  /// A timer publisher's subscription keeps the subscriber until a cancel; cancelling the
  /// connection stops it and lets go.
  @Test func timerPublisherLetsGoAtCancel() {
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = Timer.publish(every: 60, on: .main, in: .common).autoconnect()
        .sink { _ in _ = token }
    }
    #expect(weakToken != nil)
    cancellable?.cancel()
    #expect(weakToken == nil)
  }
}

/// Where Ripple differs from Combine: `merge` and `combineLatest` let go of their
/// subscriber at a failure of one side and at a cancel; Combine keeps it through a cycle
/// nothing else breaks (the OpenCombine fork's `testMerge*Lifecycle` and
/// `testCombineLatest*Lifecycle` expect it kept).
@Suite struct MergeLifetimeTests {
  enum Row: String, CaseIterable, Sendable {
    case merge
    case combineLatest

    func make(
      _ first: PassthroughSubject<Int, TestError>, _ second: PassthroughSubject<Int, TestError>
    )
      -> AnyPublisher<Int, TestError>
    {
      switch self {
      case .merge: first.merge(with: second).eraseToAnyPublisher()
      case .combineLatest: first.combineLatest(second) { a, _ in a }.eraseToAnyPublisher()
      }
    }
  }

  @Test(arguments: Row.allCases)
  func aFailureOfOneSideReleasesTheSubscriber(_ row: Row) {
    let second = PassthroughSubject<Int, TestError>()
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    do {
      let first = PassthroughSubject<Int, TestError>()
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      row.make(first, second).subscribe(subscriber)
      first.send(42)
      first.send(completion: .failure(.oops))
      #expect(subscriber.completed)
    }
    #expect(weakSubscriber == nil)
    _ = second
  }

  @Test(arguments: Row.allCases)
  func aCancelReleasesTheSubscriberThatHoldsItsSubscription(_ row: Row) {
    let second = PassthroughSubject<Int, TestError>()
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    var subscription: (any Subscription)?
    do {
      let first = PassthroughSubject<Int, TestError>()
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      row.make(first, second).subscribe(subscriber)
      first.send(42)
      subscription = subscriber.subscription
    }
    #expect(weakSubscriber != nil)
    subscription?.cancel()
    subscription = nil
    #expect(weakSubscriber == nil)
    _ = second
  }
}

/// `Assign` before it has a subscription, as Combine's: a cancel or a completion then is
/// ignored (there is nothing to end), so the object stays, and a subscription that comes
/// later is taken and assigns.
@Suite struct AssignWithoutSubscriptionTests {
  @Test(arguments: ["cancel", "completion"])
  func anEndBeforeTheSubscriptionKeepsTheObjectAndLaterValuesArrive(_ end: String) {
    weak var weakTarget: Target?
    let assign: Subscribers.Assign<Target, Int>
    do {
      let target = Target()
      weakTarget = target
      assign = Subscribers.Assign(object: target, keyPath: \.value)
    }
    if end == "cancel" { assign.cancel() } else { assign.receive(completion: .finished) }
    #expect(weakTarget != nil, "\(end) without a subscription let go of the object")
    #expect(assign.object != nil)
    let subject = PassthroughSubject<Int, Never>()
    subject.subscribe(assign)
    subject.send(7)
    #expect(weakTarget?.value == 7)
    assign.cancel()
    #expect(weakTarget == nil)
  }
}
