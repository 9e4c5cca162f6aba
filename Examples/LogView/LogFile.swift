import Ripple

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A log file read as it grows, as `tail -F` reads it: the lines appended since the last
/// read, from the start again when the file was truncated or replaced (rotated).
final class LogFile {
  let path: String
  private var offset = 0
  private var inode: UInt64 = 0
  private var partial: [UInt8] = []

  init(path: String) { self.path = path }

  /// What a read found: whether the file started over, and its new whole lines.
  struct Read {
    var restarted = false
    var lines: [String] = []
  }

  /// The lines appended since the last read (a line still being written waits for its
  /// newline).
  func read() -> Read {
    var result = Read()
    var info = stat()
    guard stat(path, &info) == 0 else { return result }
    let currentInode = UInt64(info.st_ino)
    if currentInode != inode || Int(info.st_size) < offset {
      result.restarted = inode != 0
      inode = currentInode
      offset = 0
      partial = []
    }
    guard Int(info.st_size) > offset else { return result }
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return result }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset))
      }
      guard count > 0 else { break }
      offset += count
      for byte in buffer[0..<count] {
        if byte == UInt8(ascii: "\n") {
          result.lines.append(String(decoding: partial, as: UTF8.self))
          partial.removeAll(keepingCapacity: true)
        } else {
          partial.append(byte)
        }
      }
    }
    return result
  }
}
