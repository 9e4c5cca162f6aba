import Synchronization

extension SimpleGraphemes {
  /// Each scalar of the Basic Multilingual Plane (U+0000–U+FFFF, where nearly all text
  /// lives) as drawing needs it, two bits each: 0 when it is not simple, else its
  /// columns (1 or 2). Made once from ``isSimple(_:)`` and ``columns(ofSimple:)``, so a
  /// character of text costs a lookup rather than a walk through their ranges; 16 KB.
  static let planeZeroColumns: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 0x10000 / 4)
    for value in UInt32(0)..<0x10000 where isSimple(value) {
      let columns = UInt8(columns(ofSimple: value))
      table[Int(value >> 2)] |= columns << ((value & 3) << 1)
    }
    return table
  }()

  /// The scalar at `offset` of valid UTF-8, its length, and its columns when it is
  /// simple (0 when it is not); `table` is ``planeZeroColumns``, in place.
  @inline(__always)
  static func simpleScalar(
    in bytes: UnsafeBufferPointer<UInt8>, at offset: Int, table: UnsafeBufferPointer<UInt8>
  ) -> (value: UInt32, length: Int, columns: Int) {
    let (value, length) = scalar(in: bytes, at: offset)
    return (value, length, simpleColumns(of: value, in: table))
  }

  /// The columns of the simple scalar `value`, or 0 when it is not simple; `table` is
  /// ``planeZeroColumns``, in place.
  @inline(__always)
  static func simpleColumns(of value: UInt32, in table: UnsafeBufferPointer<UInt8>) -> Int {
    guard value < 0x10000 else { return columnsBeyondPlaneZero(of: value) }
    return Int(table[Int(value &>> 2)] &>> ((value & 3) &<< 1) & 3)
  }

  /// ``simpleColumns(of:in:)`` past the Basic Multilingual Plane (emoji, rare CJK): kept
  /// out of line, so that the loops that read every scalar stay small.
  @inline(never)
  static func columnsBeyondPlaneZero(of value: UInt32) -> Int {
    isSimple(value) ? columns(ofSimple: value) : 0
  }

  /// The UTF-8 of a character of at most eight bytes, packed first byte lowest; `nil` for
  /// a longer one. Lengths cannot collide: a character of several scalars holds no zero
  /// byte (U+0000 is a control, always a character of its own).
  @inline(__always)
  static func packedKey(of utf8: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard utf8.count <= 8 else { return nil }
    var key: UInt64 = 0
    var shift: UInt64 = 0
    for byte in utf8 {
      key |= UInt64(byte) << shift
      shift &+= 8
    }
    return key
  }

  /// The columns of characters of several scalars measured so far, by their packed
  /// UTF-8: measuring one walks the width tables scalar by scalar, and the same few
  /// (accented letters, emoji with a skin tone, flags) come back on every frame. Shared by
  /// every canvas, and so behind a lock; it keeps at most ``clusterMemoLimit``.
  static let clusterColumns = Mutex<[UInt64: UInt8]>([:])

  /// The most characters ``clusterColumns`` keeps.
  static let clusterMemoLimit = 4_096

  /// The columns of the character of several scalars whose UTF-8 is `utf8`.
  static func columns(ofCluster utf8: UnsafeBufferPointer<UInt8>) -> Int {
    guard let key = packedKey(of: utf8) else {
      return TerminalText.columns(ofScalars: Scalars(utf8))
    }
    if let known = clusterColumns.withLock({ $0[key] }) { return Int(known) }
    let columns = TerminalText.columns(ofScalars: Scalars(utf8))
    clusterColumns.withLock { memo in
      if memo.count < clusterMemoLimit { memo[key] = UInt8(columns) }
    }
    return columns
  }
}
