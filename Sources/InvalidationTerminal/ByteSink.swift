import Invalidation

/// Bytes gathered in a fixed buffer and moved to an array a block at a time: so that a
/// frame's cells, a byte or a few each, are stored with no per-byte capacity or
/// uniqueness check of the array.
struct ByteSink: ~Copyable {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  private var count = 0

  /// Creates a sink of `capacity` bytes: by default twice the widest canvas row at four
  /// bytes a cell (a full repaint reserves a row's worth at once; twice that lets several
  /// rows gather before a flush).
  init(
    capacity: Int = CanvasGlyph.scalarUTF8Limit * TextCanvas.maximumSize.width * 2
  ) {
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  /// Makes room for `bytes` more, moving what it holds to `output` when it would not fit.
  @inline(__always)
  mutating func reserve(_ bytes: Int, flushingTo output: inout [UInt8]) {
    if count &+ bytes > buffer.count { flush(to: &output) }
  }

  /// Appends one byte; room was reserved.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    buffer[count] = byte
    count &+= 1
  }

  /// Calls `body` with the start of its unused space (room was reserved for what `body`
  /// writes), and counts the bytes `body` says it wrote.
  ///
  /// - Returns: What `body` returns beside the count.
  @inline(__always)
  mutating func withUnusedSpace<Result>(
    _ body: (UnsafeMutablePointer<UInt8>) -> (Result, written: Int)
  ) -> Result {
    let (result, written) = body(buffer.baseAddress! + count)
    count &+= written
    return result
  }

  /// Appends `utf8`, moving what it holds to `output` first when it would not fit (and
  /// `utf8` itself straight to `output` when it is larger than the whole buffer).
  mutating func append(
    contentsOf utf8: UnsafeBufferPointer<UInt8>, flushingTo output: inout [UInt8]
  ) {
    reserve(utf8.count, flushingTo: &output)
    guard utf8.count <= buffer.count else { return output.append(contentsOf: utf8) }
    guard let source = utf8.baseAddress else { return }
    (buffer.baseAddress! + count).update(from: source, count: utf8.count)
    count &+= utf8.count
  }

  /// Moves the bytes it holds to the end of `output`.
  mutating func flush(to output: inout [UInt8]) {
    output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
    count = 0
  }
}
