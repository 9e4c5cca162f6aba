import Foundation
import ReactiveCore
import Testing

struct TestCodableError: Error, Codable, Equatable {
  var code: Int
}

@Suite struct CompletionTests {
  @Test func completionIsEquatableAndCodable() throws {
    let failure = Subscribers.Completion<TestCodableError>.failure(.init(code: 4))
    let data = try JSONEncoder().encode([failure, .finished])
    #expect(
      try JSONDecoder().decode([Subscribers.Completion<TestCodableError>].self, from: data)
        == [failure, .finished])
  }
}
