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
public struct TerminalWriter: Sendable {
  private let body: @Sendable ([UInt8]) -> Void

  /// Creates a writer from a closure that receives each frame's bytes (never an empty
  /// array).
  ///
  /// - Parameter write: Called with the bytes of one frame or one control sequence.
  public init(_ write: @escaping @Sendable ([UInt8]) -> Void) {
    body = write
  }

  /// Writes `bytes`, unless there are none.
  ///
  /// - Parameter bytes: The bytes to write.
  public func write(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    body(bytes)
  }

  /// A writer to a file descriptor: writes everything, retrying after partial writes and
  /// interruptions; stops quietly if the descriptor is closed.
  ///
  /// - Parameter descriptor: An open file descriptor.
  /// - Returns: The writer.
  public static func fileDescriptor(_ descriptor: Int32) -> TerminalWriter {
    TerminalWriter { bytes in writeAll(bytes, to: descriptor) }
  }

  /// A writer to standard output.
  public static var standardOutput: TerminalWriter { fileDescriptor(STDOUT_FILENO) }
}

/// Writes every byte to `descriptor`, retrying after `EINTR` and partial writes.
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
