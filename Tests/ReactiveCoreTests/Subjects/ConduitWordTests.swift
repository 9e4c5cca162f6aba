import Testing

@testable import ReactiveCore

/// A conduit's state written with plain fields: the model `ConduitWord` is checked against.
private struct ModelConduit: Equatable, CustomStringConvertible {
  var ended = false
  var completing = false
  var released = false
  var owesValue = false
  /// `nil` for unlimited.
  var demand: Int? = 0
  var kind: SubjectKind
  var boxed: Bool
  var tracked: Bool

  var description: String {
    "ended \(ended) completing \(completing) released \(released) owes \(owesValue) "
      + "demand \(demand.map(String.init) ?? "unlimited") \(kind) boxed \(boxed) tracked \(tracked)"
  }

  var word: ConduitWord {
    var word = ConduitWord(owesValue: owesValue, boxed: boxed, tracked: tracked, kind: kind)
    word = word.with(demandCount: demand.map { UInt($0) } ?? ConduitWord.unlimited)
    if ended { word.raw |= ConduitWord.endedBit }
    if completing { word.raw |= ConduitWord.completingBit }
    if released { word.raw |= ConduitWord.releasedBit }
    return word
  }

  /// Whether a conduit can be in this state: a completion or a release only after an
  /// end, never both at once (releasing waits for the completion), and an owed value only
  /// for a subject with a current value.
  var isReachable: Bool {
    (ended || !completing && !released) && !(completing && released)
      && (!owesValue || kind.keepsCurrentValue)
  }

  static func adding(_ demand: Subscribers.Demand, to current: Int?) -> Int? {
    guard let current, let more = demand.max else { return nil }
    let sum = current.addingReportingOverflow(more)
    return sum.overflow || UInt(sum.partialValue) >= ConduitWord.unlimited ? nil : sum.partialValue
  }
}

/// The events of a conduit's word, each with what the model says happens.
private enum WordEvent: CaseIterable {
  case offer
  case returnNone, returnOne, returnUnlimited
  case requestOne, requestTwo, requestUnlimited
  case finish, completionDelivered, cancel, release

  var demand: Subscribers.Demand {
    switch self {
    case .returnNone: .none
    case .returnOne, .requestOne: .max(1)
    case .requestTwo: .max(2)
    default: .unlimited
    }
  }
}

@Suite struct ConduitWordTests {
  /// Every state a conduit's word can hold, over a few demands including the extremes.
  private static let states: [ModelConduit] = {
    var states: [ModelConduit] = []
    let demands: [Int?] = [0, 1, 2, Int(ConduitWord.unlimited - 1), nil]
    for kind in [SubjectKind.passthrough, .currentValue, .published] {
      for bits in 0..<(1 << 6) {
        for demand in demands {
          let state = ModelConduit(
            ended: bits & 1 != 0, completing: bits & 2 != 0, released: bits & 4 != 0,
            owesValue: bits & 8 != 0, demand: demand, kind: kind, boxed: bits & 16 != 0,
            tracked: bits & 32 != 0)
          if state.isReachable { states.append(state) }
        }
      }
    }
    return states
  }()

  @Test func facts() {
    for state in Self.states {
      let word = state.word
      #expect(word.isEnded == state.ended, "\(state)")
      #expect(word.isCompleting == state.completing, "\(state)")
      #expect(word.isReleased == state.released, "\(state)")
      #expect(word.owesValue == state.owesValue, "\(state)")
      #expect(word.kind == state.kind, "\(state)")
      #expect(word.isBoxed == state.boxed, "\(state)")
      #expect(word.isTracked == state.tracked, "\(state)")
      #expect(word.demand == (state.demand.map { .max($0) } ?? .unlimited), "\(state)")
      #expect(word.isDueForRelease == (state.ended && !state.completing && !state.released))
      #expect(
        word.deliversWithoutCounting
          == (!state.ended && !state.owesValue && state.demand == nil), "\(state)")
    }
  }

  /// Every event from every reachable state: the word's transition matches the model's,
  /// and leaves a reachable state with the creation-time facts untouched.
  @Test(arguments: WordEvent.allCases)
  fileprivate func transition(_ event: WordEvent) {
    #expect(Self.states.count == 400)
    for state in Self.states {
      var after = state
      let word = state.word
      let next: ConduitWord?
      switch event {
      case .offer:
        let (offered, delivers) = word.offeringValue()
        next = offered
        var expectedDelivery = false
        if !state.ended && !state.owesValue {
          switch state.demand {
          case nil: expectedDelivery = true
          case let count? where count > 0:
            expectedDelivery = true
            after.demand = count - 1
          default:
            after.owesValue = state.kind.keepsCurrentValue
          }
        }
        #expect(delivers == expectedDelivery, "\(event) from \(state)")
      case .returnNone, .returnOne, .returnUnlimited:
        next = word.returningDemand(event.demand)
        if !state.ended { after.demand = ModelConduit.adding(event.demand, to: state.demand) }
      case .requestOne, .requestTwo, .requestUnlimited:
        let requested = word.requesting(event.demand)
        next = requested?.next
        if state.ended {
          #expect(requested == nil, "\(event) from \(state)")
        } else {
          // An owed value takes one unit of the request in the same step.
          let demand = state.owesValue ? event.demand - 1 : event.demand
          after.demand = ModelConduit.adding(demand, to: state.demand)
          after.owesValue = false
          #expect(requested?.deliversOwedValue == state.owesValue, "\(event) from \(state)")
        }
      case .finish:
        next = word.finishing()
        if state.ended {
          #expect(next == nil, "\(event) from \(state)")
        } else {
          after.ended = true
          after.completing = true
        }
      case .completionDelivered:
        next = word.completionDelivered()
        after.completing = false
      case .cancel:
        next = word.cancelling()
        if state.ended {
          #expect(next == nil, "\(event) from \(state)")
        } else {
          after.ended = true
        }
      case .release:
        next = word.releasing()
        if state.ended && !state.completing && !state.released {
          after.released = true
        } else {
          #expect(next == nil, "\(event) from \(state)")
        }
      }
      let result = next ?? word
      #expect(result == after.word, "\(event) from \(state): got \(result.raw), want \(after)")
      #expect(after.isReachable || event == .completionDelivered, "\(event) from \(state)")
    }
  }

  /// An ended conduit only moves towards release: no event revives it or changes its
  /// demand.
  @Test func endedIsFinal() {
    for state in Self.states where state.ended {
      let word = state.word
      #expect(word.offeringValue().next == word)
      #expect(!word.offeringValue().delivers)
      #expect(word.returningDemand(.unlimited) == word)
      #expect(word.requesting(.max(1)) == nil)
      #expect(word.finishing() == nil)
      #expect(word.cancelling() == nil)
    }
  }
}
