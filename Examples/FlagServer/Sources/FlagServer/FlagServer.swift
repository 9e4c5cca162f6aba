import Foundation
import Hummingbird
import Ripple

/// Serves feature flags kept in a Ripple store file: `GET /flags`, `PUT /flags/<name>`
/// (body `true` or `false`), and `GET /events`, a Server-Sent Events stream of every
/// change, from this process or any other that shares the file.
///
/// Usage: `FlagServer <store file> <port>`. SIGTERM or SIGINT stops it gracefully: open
/// streams end, and the store is flushed and closed.
@main
struct FlagServer {
  static func main() async throws {
    let arguments = CommandLine.arguments
    let path = arguments.count > 1 ? arguments[1] : "flags.json"
    let port = arguments.count > 2 ? Int(arguments[2]) ?? 8080 : 8080
    // Opening waits for the file's lock and reads the file: off the cooperative pool.
    let store = try await Store.open(persistence: .file(path: path))
    // One scope per connection hangs under this root while the connection is open.
    let connections = RootScope()
    let router = Router()
    FlagRoutes(store: store, connections: connections).add(to: router)
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
    print("FlagServer: listening on 127.0.0.1:\(port), flags in \(path)")
    try await app.runService()
    try await store.async.close()
    print("FlagServer: stopped, flags saved")
  }
}
