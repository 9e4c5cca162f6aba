import Foundation
import Hummingbird
import Ripple
import ServiceLifecycle

/// The service's routes. `Store` and `RootScope` are `Sendable`, so the `@Sendable`
/// handlers capture them as they are.
struct FlagRoutes: Sendable {
  let store: Store
  let connections: RootScope

  /// The key a flag's name is kept under: flags share the file with other settings.
  static func key(_ name: String) -> StoreKey<Bool> { StoreKey("flag.\(name)") }

  func add(to router: Router<BasicRequestContext>) {
    router.get("flags") { _, _ in try flags() }
    router.put("flags/:name") { request, context in
      try await set(request, context: context)
    }
    router.get("events") { _, _ in try events() }
  }

  /// Every flag, from this process or another: the store lists keys by name, so flags
  /// need no list of their own.
  func flags() throws -> Response {
    var flags: [String: Bool] = [:]
    for listed in store.listedKeys where listed.name.hasPrefix("flag.") {
      let name = String(listed.name.dropFirst("flag.".count))
      flags[name] = store.value(for: Self.key(name))
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let body = try encoder.encode(flags)
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// Sets a flag and returns once the change is durable. Staging never waits; the
  /// flush does, so it is awaited in its async form, which leaves the server's threads
  /// free.
  func set(_ request: Request, context: BasicRequestContext) async throws -> HTTPResponse.Status {
    var request = request
    let name = try context.parameters.require("name")
    let text = String(buffer: try await request.collectBody(upTo: 16))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard let value = Bool(text) else { return .badRequest }
    store.stage(value, for: Self.key(name))
    try await store.async.flush()
    return .noContent
  }

  /// A stream of every flag change, one event each. The connection is a scope under
  /// `connections`: attached while the client listens, and detached — cancelling its
  /// subscription — when the client goes away. Changes wait in a bounded buffer for a
  /// slow client; past 1,000 the oldest are dropped (each event holds the flag's latest
  /// value, so the client still ends up right). A graceful shutdown ends the stream.
  func events() throws -> Response {
    let (events, continuation) = AsyncStream.makeStream(
      of: String.self, bufferingPolicy: .bufferingNewest(1_000))
    let store = store
    let connection = AnonymousBehavior { cancellables in
      store.publisherForAllKeys()
        .filter { $0.key.name.hasPrefix("flag.") }
        .sink { continuation.yield(Self.event(for: $0)) }
        .store(in: &cancellables)
    }
    try connection.attach(to: connections)
    continuation.onTermination = { _ in connection.detach() }
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
      body: ResponseBody { writer in
        try await writer.write(ByteBuffer(string: ": connected\n\n"))
        // A server shutting down waits for every response to end: end this one then.
        try await withGracefulShutdownHandler {
          for await event in events {
            try await writer.write(ByteBuffer(string: event))
          }
        } onGracefulShutdown: {
          continuation.finish()
        }
        try await writer.finish(nil)
      })
  }

  /// One Server-Sent Event for a flag's change: its name, value and where it came from.
  /// A flag another process created, which this store has not read as a `Bool` yet,
  /// arrives as JSON.
  static func event(for mutation: AnyMutation) -> String {
    struct Event: Encodable {
      let name: String
      let value: Bool?
      let origin: String
    }
    let value =
      mutation.newValue as? Bool
      ?? (try? (mutation.newValue as? UntypedValue)?.decode(as: Bool.self))
    let event = Event(
      name: String(mutation.key.name.dropFirst("flag.".count)), value: value,
      origin: "\(mutation.origin)")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = (try? encoder.encode(event)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    return "data: \(json)\n\n"
  }
}
