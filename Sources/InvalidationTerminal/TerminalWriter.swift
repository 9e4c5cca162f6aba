#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the terminal backend's bytes go: a file descriptor, or anything a test supplies
/// to count or inspect them.
///
///     let written = Mutex(0)
///     let writer = TerminalWriter { bytes in written.withLock { $0 += bytes.count } }
///
/// A writer made with ``init(reportingCompletion:)`` also says whether each write reached
/// its destination in full; ``TerminalBackend`` repaints the whole screen after one that
/// did not, since the screen may show part of a frame.
public struct TerminalWriter: Sendable {
  private let body: @Sendable ([UInt8]) -> Bool

  /// Creates a writer from a closure that receives each frame's bytes (never an empty
  /// array).
  ///
  /// - Parameter write: Called with the bytes of one frame or one control sequence.
  public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
    body = { bytes in
      write(bytes)
      return true
    }
  }

  /// Creates a writer from a closure that receives each frame's bytes (never an empty
  /// array) and returns whether all of them were written.
  ///
  ///     let writer = TerminalWriter(reportingCompletion: { bytes in
  ///       connection.send(bytes)  // false if the connection dropped part of them
  ///     })
  ///
  /// - Parameter write: Called with the bytes of one frame or one control sequence;
  ///   returns `false` after a short or failed write.
  public init(reportingCompletion write: @escaping @Sendable ([UInt8]) -> Bool) {
    body = write
  }

  /// Writes `bytes`, unless there are none.
  ///
  /// - Parameter bytes: The bytes to write.
  public func write(_ bytes: [UInt8]) {
    _ = tryWrite(bytes)
  }

  /// Writes `bytes`, unless there are none, and reports whether all of them were written.
  ///
  /// - Parameter bytes: The bytes to write.
  /// - Returns: `false` if the write was cut short, failed or was dropped (the
  ///   destination may show part of the bytes); `true` otherwise, and for no bytes.
  @discardableResult
  public func tryWrite(_ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty else { return true }
    return body(bytes)
  }

  /// A writer to a file descriptor: writes everything, retrying after partial writes and
  /// interruptions; stops quietly if the descriptor is closed (and reports it).
  ///
  /// - Parameter descriptor: An open file descriptor.
  /// - Returns: The writer.
  public static func fileDescriptor(_ descriptor: Int32) -> TerminalWriter {
    TerminalWriter(reportingCompletion: { bytes in writeAll(bytes, to: descriptor) })
  }

  /// A writer to standard output.
  public static var standardOutput: TerminalWriter { fileDescriptor(STDOUT_FILENO) }
}

/// Writes every byte to `descriptor`, retrying after `EINTR` and partial writes, and
/// after `EAGAIN` for as long as the descriptor becomes writable within `timeout` of the
/// last progress (forever without one). Returns whether every byte was written.
@discardableResult
func writeAll(_ bytes: [UInt8], to descriptor: Int32, timeout: Duration? = nil) -> Bool {
  let milliseconds =
    timeout.map {
      Int32($0.components.seconds * 1_000)
        + Int32($0.components.attoseconds / 1_000_000_000_000_000)
    } ?? -1
  return bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written > 0 {
        offset += written
        continue
      }
      let error = errno
      if written < 0 && error == EINTR { continue }
      guard written < 0, error == EAGAIN || error == EWOULDBLOCK else { return false }
      // The terminal is not reading: wait for room, but not past the timeout.
      var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      var ready: Int32
      repeat {
        ready = poll(&request, 1, milliseconds)
      } while ready < 0 && errno == EINTR
      guard ready > 0, request.revents & Int16(POLLOUT) != 0 else { return false }
    }
    return true
  }
}
