import Foundation
import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, on a port the kernel picks, built on POSIX
/// sockets so that the tests need nothing beyond the toolchain.
///
/// Each connection runs on a thread of its own and gets one reply, chosen by the request's
/// path, then is closed; a `.stall` reply holds the connection open, sending nothing,
/// until the client closes it. The server records every request path and every stalled
/// connection the client closed, and `waitUntil` lets a test wait for them. `replied` runs
/// on the connection's thread once a reply has been written, while the client reads it.
final class LoopbackHTTPServer: Sendable {
  /// What the server does with one request.
  enum Reply: Sendable {
    /// A complete response with this status and body.
    case respond(status: Int, body: [UInt8])
    /// Nothing at all: the connection stays open until the client closes it.
    case stall
  }

  /// What the server has seen.
  struct Log {
    /// The path of every request received, in order of arrival.
    var requests: [String] = []
    /// The path of every stalled request whose connection the client closed.
    var closedByClient: [String] = []
  }

  /// The port the server listens on.
  let port: UInt16
  private let listener: Int32
  private let log = LogBox()

  /// The log, in a class of its own so that each connection's thread can share it. Behind
  /// ReactiveCore's lock, whose acquires and releases the thread sanitizer sees (it does
  /// not see `Synchronization.Mutex`'s on Linux, and reports the log's accesses as races).
  private final class LogBox: Sendable {
    let entries = LockedBox(Log())
    func withLock<Result: Sendable>(_ body: (inout Log) -> Result) -> Result {
      entries.withLock { body(&$0) }
    }
  }

  /// Starts listening; `reply` picks each request's reply from its path, and `replied` is
  /// told each path whose reply was written.
  init(
    reply: @escaping @Sendable (String) -> Reply,
    replied: @escaping @Sendable (String) -> Void = { _ in }
  ) throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, length) == 0 && listen(listener, 64) == 0
          && getsockname(listener, $0, &length) == 0
      }
    }
    guard bound else {
      close(listener)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let log = log
    Thread.detachNewThread {
      // `accept` fails once `stop()` shuts the listener down, which ends the loop.
      while case let connection = accept(listener, nil, nil), connection >= 0 {
        Thread.detachNewThread {
          Self.serve(connection, log: log, reply: reply, replied: replied)
        }
      }
    }
  }

  /// A URL on this server.
  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// What the server has seen so far.
  var seen: Log { log.withLock { $0 } }

  /// Waits until `condition` holds for the log; false if it did not within `timeout`
  /// seconds (a guard against a hang, never a measurement).
  func waitUntil(timeout: Double = 60, _ condition: @escaping (Log) -> Bool) async -> Bool {
    await eventually(timeout: timeout) { self.log.withLock { condition($0) } }
  }

  /// Stops accepting connections.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private static func serve(
    _ connection: Int32, log: LogBox, reply: @Sendable (String) -> Reply,
    replied: @Sendable (String) -> Void
  ) {
    defer { close(connection) }
    guard let path = readRequestPath(connection) else { return }
    log.withLock { $0.requests.append(path) }
    switch reply(path) {
    case .respond(let status, let body):
      let head =
        "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
        + "Content-Length: \(body.count)\r\nContent-Type: application/octet-stream\r\n"
        + "Connection: close\r\n\r\n"
      if write(connection, Array(head.utf8)) && write(connection, body) { replied(path) }
    case .stall:
      // Reads until the client closes the connection (0) or it fails: either way the
      // client gave up on the request.
      var byte: UInt8 = 0
      while recv(connection, &byte, 1, 0) > 0 {}
      log.withLock { $0.closedByClient.append(path) }
    }
  }

  /// Reads the request head and returns the path of its request line.
  private static func readRequestPath(_ connection: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !received.ends(with: Array("\r\n\r\n".utf8)) {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      received += buffer[..<count]
    }
    let requestLine = String(decoding: received, as: UTF8.self).prefix { $0 != "\r" }
    let parts = requestLine.split(separator: " ")
    return parts.count >= 2 ? String(parts[1]) : nil
  }

  /// Writes all of `bytes`; false if the client closed the connection first.
  private static func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

/// A port on 127.0.0.1 that refuses connections: a socket bound to it, never listening,
/// holds it so that no other process can take it while the test runs.
final class RefusingPort: Sendable {
  /// The port that refuses connections.
  let port: UInt16
  private let socketDescriptor: Int32

  init() throws {
    socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let descriptor = socketDescriptor
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard descriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(socketDescriptor) }
}
