import Foundation
import ReactiveCore
import Testing

/// Both subjects, for the rows they share.
enum SubjectKindRow: String, CaseIterable, Sendable {
  case passthrough = "PassthroughSubject"
  case currentValue = "CurrentValueSubject"

  func make() -> any Subject<Int, TestError> {
    switch self {
    case .passthrough: PassthroughSubject<Int, TestError>()
    case .currentValue: CurrentValueSubject<Int, TestError>(0)
    }
  }
}

/// The subject rows of the lifetime table (`<doc:Lifetimes>`).
@Suite struct SubjectLifetimeTests {
  /// The subject keeps the subscriber until a cancel or the completion, and, as in
  /// Combine, the subscription keeps the subject object for as long: a subject that only
  /// its subscribers reference stays alive until they cancel or it completes, then goes
  /// even while the subscription object is still held.
  @Test(arguments: SubjectKindRow.allCases, Ending.allCases)
  func releasesSubscriberAndSubjectAtTheEnd(_ kind: SubjectKindRow, _ ending: Ending) {
    weak var weakSubject: AnyObject?
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    var subject: (any Subject<Int, TestError>)? = kind.make()
    weakSubject = subject
    var subscription: (any Subscription)?
    do {
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      subject?.subscribe(subscriber)
      subscription = subscriber.subscription
    }
    subject?.send(1)
    #expect(weakSubscriber != nil)
    // The live subscription keeps the subject object (Combine's conduit holds it).
    let sendable = subject
    subject = nil
    #expect(weakSubject != nil, "\(kind.rawValue): a live subscription let go of its subject")
    switch ending {
    case .cancel: subscription?.cancel()
    case .finish: sendable?.send(completion: .finished)
    case .failure: sendable?.send(completion: .failure(.oops))
    }
    _ = consume sendable
    #expect(weakSubscriber == nil, "\(kind.rawValue): subscriber kept after \(ending.rawValue)")
    #expect(weakSubject == nil, "\(kind.rawValue): subject kept after \(ending.rawValue)")
    withExtendedLifetime(subscription) {}
  }

  /// Combine releases a cancelled subscription (the conduit) at once. Ripple releases the
  /// subscriber and its closures at once; the conduit leaves the subject's list at once
  /// if it is the newest, else at the next compaction.
  @Test(arguments: SubjectKindRow.allCases)
  func cancelReleasesTheSubscriberAtOnceAmongOthers(_ kind: SubjectKindRow) {
    let subject = kind.make()
    var others: [AnyCancellable] = []
    for _ in 0..<3 {
      others.append(subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
    }
    weak var weakToken: Token?
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    weak var weakConduit: AnyObject?
    var cancellable: AnyCancellable?
    var subscription: (any Subscription)?
    do {
      let token = Token()
      weakToken = token
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      subject.subscribe(subscriber)
      subscription = subscriber.subscription
      weakConduit = subscription as AnyObject?
      cancellable = subject.sink(
        receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    for _ in 0..<3 {
      others.append(subject.sink(receiveCompletion: { _ in }, receiveValue: { _ in }))
    }
    // Neither is the newest subscription: the subscriber and the closures go at once.
    subscription?.cancel()
    subscription = nil
    cancellable?.cancel()
    #expect(weakSubscriber == nil)
    #expect(weakToken == nil)
    subject.send(1)
    // The newest conduit leaves at its cancel, as in Combine.
    weak var weakNewest: AnyObject?
    do {
      let newest = HoldingSubscriber<Int, TestError>()
      subject.subscribe(newest)
      weakNewest = newest
      newest.subscription?.cancel()
    }
    #expect(weakNewest == nil)
    _ = weakConduit
    others.removeAll()
    subject.send(completion: .finished)
    #expect(weakConduit == nil)
  }

  /// The fork's `testReleasesEverythingOnTermination`: a lone subscription's conduit is
  /// released at its cancel, with the subscriber.
  @Test(arguments: SubjectKindRow.allCases)
  func aLoneCancelledSubscriptionIsReleasedAtOnce(_ kind: SubjectKindRow) {
    let subject = kind.make()
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    weak var weakSubscription: AnyObject?
    do {
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      subject.subscribe(subscriber)
      weakSubscription = subscriber.subscription as AnyObject?
    }
    (weakSubscription as? any Subscription)?.cancel()
    #expect(weakSubscriber == nil)
    #expect(weakSubscription == nil)
    _ = subject
  }

  /// `CurrentValueSubject` keeps its current value until the next replaces it; it keeps
  /// it after the completion too, as Combine's does (`value` still reads it).
  @Test func currentValueSubjectKeepsOnlyTheCurrentValue() {
    weak var weakFirst: Payload?
    let subject: CurrentValueSubject<Payload, Never>
    do {
      let first = Payload()
      weakFirst = first
      subject = CurrentValueSubject(first)
    }
    #expect(weakFirst != nil)
    subject.send(Payload())
    #expect(weakFirst == nil)
  }
}
