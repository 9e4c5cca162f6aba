import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The *Building a terminal app* article opens with a whole program; the
/// `TerminalCounter` example is that program, so the build proves that it compiles as
/// written. This test keeps the two the same.
@Suite struct ArticleProgramTests {
  static let repository: String = {
    let path = String(#filePath)
    return String(path[..<path.firstRange(of: "/Tests/")!.lowerBound])
  }()

  static func contents(_ relativePath: String) -> String? {
    guard let file = fopen(repository + "/" + relativePath, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 {
      bytes += buffer.prefix(count)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theArticlesFirstProgramIsTheTerminalCounterExample() throws {
    let article = try #require(
      Self.contents(
        "Sources/InvalidationTerminal/InvalidationTerminal.docc/Articles/BuildingATerminalApp.md"))
    let example = try #require(Self.contents("Examples/TerminalCounter/main.swift"))
    let opening = try #require(article.firstRange(of: "```swift\n"))
    let rest = article[opening.upperBound...]
    let closing = try #require(rest.firstRange(of: "```"))
    let firstBlock = String(rest[..<closing.lowerBound])
    #expect(firstBlock == example)
    #expect(example.split(separator: "\n").count <= 22)
  }
}
