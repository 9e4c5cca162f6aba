import Foundation
import ReactiveCore
import Testing

@Suite struct DemandTests {
  typealias Demand = Subscribers.Demand

  @Test(arguments: [
    (Demand.max(1), Demand.max(2), Demand.max(3)),
    (Demand.unlimited, Demand.max(2), Demand.unlimited),
    (Demand.max(Int.max), Demand.max(Int.max), Demand.unlimited),
    (Demand.none, Demand.none, Demand.none),
  ])
  func addition(lhs: Demand, rhs: Demand, sum: Demand) {
    #expect(lhs + rhs == sum)
  }

  @Test(arguments: [
    (Demand.max(3), Demand.max(1), Demand.max(2)),
    (Demand.max(1), Demand.max(3), Demand.none),
    (Demand.unlimited, Demand.max(3), Demand.unlimited),
    (Demand.max(3), Demand.unlimited, Demand.none),
  ])
  func subtraction(lhs: Demand, rhs: Demand, difference: Demand) {
    #expect(lhs - rhs == difference)
  }

  @Test func integerArithmeticAndComparison() {
    #expect(Demand.max(2) + 3 == .max(5))
    #expect(Demand.max(2) - 5 == .none)
    #expect(Demand.max(2) * 3 == .max(6))
    #expect(Demand.unlimited * 3 == .unlimited)
    #expect(Demand.max(Int.max) * 3 == .unlimited)
    #expect(Demand.unlimited > 1_000_000)
    #expect(Demand.max(2) == 2)
    #expect(Demand.unlimited != Int.max)
    #expect(0 < Demand.max(1))
    #expect(Demand.none < Demand.max(1))
    #expect(Demand.max(1) < Demand.unlimited)
    #expect(Demand.max(4).max == 4)
    #expect(Demand.unlimited.max == nil)
  }

  @Test func descriptions() {
    #expect(Demand.unlimited.description == "unlimited")
    #expect(Demand.max(3).description == "max(3)")
    #expect(Demand.none.description == "max(0)")
  }

  @Test func codableRoundTrip() throws {
    for demand in [Demand.none, .max(7), .unlimited] {
      let data = try JSONEncoder().encode([demand])
      #expect(try JSONDecoder().decode([Demand].self, from: data) == [demand])
    }
  }

  /// Combine's wire form: a bare count, `unlimited` written as `Int.max + 1`, and any
  /// count past `Int.max` read back as unlimited.
  @Test func codableFormIsCombines() throws {
    struct Wrapper: Codable, Equatable { var value: Demand }
    let encoder = JSONEncoder()
    let max = try encoder.encode(Wrapper(value: .max(42)))
    #expect(String(decoding: max, as: UTF8.self) == #"{"value":42}"#)
    let unlimited = try encoder.encode(Wrapper(value: .unlimited))
    #expect(String(decoding: unlimited, as: UTF8.self) == #"{"value":\#(UInt(Int.max) + 1)}"#)
    let decoder = JSONDecoder()
    #expect(try decoder.decode(Wrapper.self, from: unlimited) == Wrapper(value: .unlimited))
    let tooBig = Data(#"{"value":\#(UInt(Int.max) + 2)}"#.utf8)
    #expect(try decoder.decode(Wrapper.self, from: tooBig).value.description == "unlimited")
    #expect(throws: (any Error).self) {
      try decoder.decode(Wrapper.self, from: Data(#"{"value":-1}"#.utf8))
    }
  }

  // Integer arithmetic on demand at the edges, as Combine answers it.
  @Test func unlimitedAbsorbsAnyInteger() {
    var demand = Subscribers.Demand.unlimited
    demand += Int.min
    #expect(demand == .unlimited)
    demand -= Int.max
    #expect(demand == .unlimited)
  }

  @Test func overflowingSumsAreUnlimitedAndOverflowingDifferencesAreNone() {
    #expect(Subscribers.Demand.max(Int.max) + 10 == .unlimited)
    #expect(Subscribers.Demand.max(Int.max) - (-1) == .none)
    #expect(Subscribers.Demand.max(5) + (-10) == .none)
    #expect(Subscribers.Demand.max(5) - 10 == .none)
  }
}
