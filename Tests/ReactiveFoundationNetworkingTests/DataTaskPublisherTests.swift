import Foundation
import ReactiveCore
import ReactiveFoundationNetworking
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.DataTaskPublisher` against a server the test starts on 127.0.0.1. Every wait
/// has a generous timeout, and only as a guard against a hang: no test measures time.
@Suite(.timeLimit(.minutes(5))) struct DataTaskPublisherTests {
  /// A fresh session per test, so that no test shares a connection with another; each test
  /// invalidates it, which breaks the session's references to its delegate queue and tasks.
  let session = URLSession(configuration: Self.patientConfiguration)

  /// An ephemeral session whose requests never time out on their own within a test: a
  /// stalled request must still be waiting when the test cancels it, however slowly a
  /// loaded machine (the whole suite under the thread sanitizer) gets there.
  static var patientConfiguration: URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 3_600
    configuration.timeoutIntervalForResource = 3_600
    return configuration
  }

  /// A body that shows where each byte belongs: byte `i` is `i * 31` modulo 256, so it
  /// repeats every 256 bytes (built from that period: a debug build maps 8 MiB slowly).
  static func body(count: Int) -> [UInt8] {
    let period = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var body: [UInt8] = []
    body.reserveCapacity(count)
    while body.count < count { body += period.prefix(count - body.count) }
    return body
  }

  /// The 8 MiB body `/large` serves, made once.
  static let largeBody = body(count: 8 << 20)

  static func server() throws -> LoopbackHTTPServer {
    try LoopbackHTTPServer { path in
      switch path {
      case "/hello": .respond(status: 200, body: Array("hello".utf8))
      case "/missing": .respond(status: 404, body: Array("no such page".utf8))
      case "/broken": .respond(status: 500, body: Array("it broke".utf8))
      case "/large": .respond(status: 200, body: largeBody)
      case "/stall": .stall
      default: .respond(status: 200, body: Array(path.utf8))
      }
    }
  }

  @Test func deliversTheBodyAndTheResponseThenFinishes() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: server.url("/hello")).subscribe(recorder)
    #expect(await recorder.waitForCompletion())
    let events = recorder.events
    #expect(events.count == 2)
    #expect(events.first?.data == Data("hello".utf8))
    #expect(events.first?.statusCode == 200)
    #expect(events.last?.isFinished == true)
    #expect(server.seen.requests == ["/hello"])
  }

  /// An HTTP error status is a response like any other: Combine publishes it with its
  /// body, and finishes.
  @Test(arguments: [("/missing", 404, "no such page"), ("/broken", 500, "it broke")])
  func anErrorStatusStillDeliversTheBodyAndTheResponse(
    path: String, status: Int, body: String
  ) async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: server.url(path)).subscribe(recorder)
    #expect(await recorder.waitForCompletion())
    let events = recorder.events
    #expect(events.count == 2)
    #expect(events.first?.statusCode == status)
    #expect(events.first?.data == Data(body.utf8))
    #expect(events.last?.isFinished == true)
  }

  @Test func aRequestIsSentAsWritten() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    var request = URLRequest(url: server.url("/echo/path"))
    request.httpMethod = "GET"
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: request).subscribe(recorder)
    #expect(await recorder.waitForCompletion())
    #expect(recorder.events.first?.data == Data("/echo/path".utf8))
    #expect(server.seen.requests == ["/echo/path"])
  }

  @Test func aLargeBodyArrivesWhole() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: server.url("/large")).subscribe(recorder)
    #expect(await recorder.waitForCompletion())
    let events = recorder.events
    #expect(events.count == 2)
    #expect(events.first?.data == Data(Self.largeBody))
    #expect(events.last?.isFinished == true)
  }

  @Test func aRefusedConnectionFailsWithAURLError() async throws {
    let refusing = try RefusingPort()
    defer { session.finishTasksAndInvalidate() }
    let url = URL(string: "http://127.0.0.1:\(refusing.port)/")!
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: url).subscribe(recorder)
    #expect(await recorder.waitForCompletion())
    let events = recorder.events
    #expect(events.count == 1)
    #expect(events.first?.urlError?.code == .cannotConnectToHost)
  }

  /// Cancelling a request the server never answers cancels its task: the client closes
  /// the connection, and nothing reaches the subscriber, before or after.
  @Test func cancellingAStalledRequestCancelsItsTask() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    // Serial, as a session's own is: on Linux, a concurrent one leaves a resumed task
    // running (`DataTaskCancelStressTests` covers that).
    let delegateQueue = OperationQueue()
    delegateQueue.maxConcurrentOperationCount = 1
    let session = URLSession(
      configuration: Self.patientConfiguration, delegate: nil, delegateQueue: delegateQueue)
    defer { session.invalidateAndCancel() }
    let recorder = DataTaskRecorder()
    session.dataTaskPublisher(for: server.url("/stall")).subscribe(recorder)
    #expect(await server.waitUntil { $0.requests == ["/stall"] })
    recorder.cancel()
    #expect(await server.waitUntil { $0.closedByClient == ["/stall"] })
    // The cancelled task still reports (`.cancelled`) on the delegate queue; let what has
    // been queued run, so that a delivery the subscription failed to drop would show.
    await delegateQueue.drain()
    #expect(recorder.events.isEmpty)
  }

  /// Combine makes no request until the subscriber asks for a value.
  @Test func noRequestIsMadeBeforeDemand() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let waiting = DataTaskRecorder(initialDemand: .none)
    session.dataTaskPublisher(for: server.url("/first")).subscribe(waiting)
    // A second subscriber that does ask goes all the way through the server meanwhile.
    let asking = DataTaskRecorder()
    session.dataTaskPublisher(for: server.url("/second")).subscribe(asking)
    #expect(await asking.waitForCompletion())
    #expect(server.seen.requests == ["/second"])
    #expect(waiting.events.isEmpty)

    waiting.request(.max(1))
    #expect(await waiting.waitForCompletion())
    #expect(waiting.events.first?.data == Data("/first".utf8))
    #expect(server.seen.requests == ["/second", "/first"])
  }

  @Test func eachSubscriptionRunsATaskOfItsOwn() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let publisher = session.dataTaskPublisher(for: server.url("/hello"))
    let recorders = [DataTaskRecorder(), DataTaskRecorder()]
    for recorder in recorders { publisher.subscribe(recorder) }
    for recorder in recorders { #expect(await recorder.waitForCompletion()) }
    #expect(server.seen.requests == ["/hello", "/hello"])
  }

  /// A cancelled subscription lets go of its subscriber at once, though its task is still
  /// winding down.
  @Test func cancellingReleasesTheSubscriber() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    weak var released: DataTaskRecorder?
    do {
      let recorder = DataTaskRecorder()
      released = recorder
      session.dataTaskPublisher(for: server.url("/stall")).subscribe(recorder)
      #expect(await server.waitUntil { $0.requests == ["/stall"] })
      recorder.cancel()
    }
    #expect(released == nil)
    #expect(await server.waitUntil { $0.closedByClient == ["/stall"] })
  }

  /// Cancels race responses from another thread: each subscriber gets all of the outcome
  /// (a value, then finished) or none of it, never a part and never twice. The test ends
  /// only once every task, cancelled or not, has ended and left its session, so that a
  /// cancel that upset the session (on Linux, a trap) shows here.
  @Test func aCancelRacingTheResponseDeliversAllOrNothing() async throws {
    let server = try Self.server()
    defer { server.stop() }
    defer { session.finishTasksAndInvalidate() }
    let watcher = InvalidationWatcher()
    let session = URLSession(
      configuration: Self.patientConfiguration, delegate: watcher, delegateQueue: nil)
    let recorders = (0..<40).map { _ in DataTaskRecorder() }
    DispatchQueue.concurrentPerform(iterations: recorders.count) { index in
      let recorder = recorders[index]
      session.dataTaskPublisher(for: server.url("/hello")).subscribe(recorder)
      if index.isMultiple(of: 2) { recorder.cancel() }
    }
    #expect(await server.waitUntil { $0.requests.count >= recorders.count / 2 })
    for (index, recorder) in recorders.enumerated() where !index.isMultiple(of: 2) {
      #expect(await recorder.waitForCompletion())
    }
    session.finishTasksAndInvalidate()
    #expect(await watcher.waitForInvalidation())
    for recorder in recorders {
      let events = recorder.events
      #expect(events.isEmpty || (events.count == 2 && events.last?.isFinished == true))
    }
  }
}
