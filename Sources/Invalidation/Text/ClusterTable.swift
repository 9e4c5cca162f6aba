#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The characters of several scalars that a canvas's cells show, each stored once, as
/// UTF-8.
///
/// Cells refer to them by index. A character is looked up by its UTF-8 bytes, packed
/// into one integer when it has at most eight (as most such characters do; a character
/// of several scalars holds no zero byte, so lengths cannot collide): by a scan while the
/// table is small (a row's worth), by hashing the integer beyond that. No `Character` is
/// made or hashed (hashing one normalizes it) to store or compare one; compositing copies
/// bytes. Indices only grow while the canvas lives; the canvas compacts the table when it
/// outgrows the cells that could refer to it.
///
/// A character may be stored more than once (compositing appends another canvas's table
/// whole rather than looking up each of its characters): any index with the right bytes
/// is a right index, and every comparison of cells compares bytes.
@usableFromInline
package struct ClusterTable: Sendable {
  /// What the table knows of one character.
  private struct Entry {
    /// Its UTF-8, packed (see `SimpleGraphemes.packedKey(of:)`), or 0 when longer.
    var key: UInt64
    /// Where its UTF-8 ends in `bytes`.
    var end: UInt32
    /// Whether it would act on a terminal (see `CellText`).
    var acts: Bool
    /// Its columns once drawing text has measured it; ``unmeasured`` until then.
    var columns: UInt8 = Entry.unmeasured

    static let unmeasured: UInt8 = .max
  }

  /// Every character's UTF-8, one after another.
  private var bytes: [UInt8] = []
  /// Each character, by index.
  private var entries: [Entry] = []
  /// Indices of characters of at most eight bytes, once the table is too large to scan.
  /// Every index it holds is right; a character appended with another table may be
  /// missing (it is then stored again, which is harmless).
  private var lookup: [UInt64: UInt32] = [:]

  /// The most characters found by a scan.
  private static let scanLimit = 16

  /// How many characters it holds.
  var count: Int { entries.count }

  /// The range of `bytes` that holds the character at `index`.
  @inline(__always)
  private func range(at index: Int) -> Range<Int> {
    (index == 0 ? 0 : Int(entries[index - 1].end))..<Int(entries[index].end)
  }

  /// The UTF-8 of the character at `index`.
  func utf8(at index: UInt32) -> ArraySlice<UInt8> {
    bytes[range(at: Int(index))]
  }

  /// The character at `index`.
  subscript(index: UInt32) -> Character {
    Character(String(decoding: utf8(at: index), as: UTF8.self))
  }

  /// The index of `character`, stored first if it is new.
  mutating func index(of character: Character) -> Int {
    let text = String(character)
    if let index = text.utf8.withContiguousStorageIfAvailable({ index(ofUTF8: $0) }) {
      return index
    }
    return Array(text.utf8).withUnsafeBufferPointer { index(ofUTF8: $0) }
  }

  /// The index of the character whose UTF-8 is `utf8` (one whole character of several
  /// scalars), stored first if it is new.
  mutating func index(ofUTF8 utf8: UnsafeBufferPointer<UInt8>) -> Int {
    let key = SimpleGraphemes.packedKey(of: utf8) ?? 0
    if key == 0 {
      // Long characters (families, professions) are few: found by comparing bytes.
      if let index = indexOfLong(utf8) { return index }
    } else if entries.count <= Self.scanLimit {
      if let index = entries.firstIndex(where: { $0.key == key }) { return index }
    } else if let index = lookup[key] {
      return Int(index)
    }
    let index = entries.count
    bytes.append(contentsOf: utf8)
    let acts = SimpleGraphemes.Scalars(utf8).contains { CellText.actsOnTheTerminal($0.value) }
    entries.append(Entry(key: key, end: UInt32(bytes.count), acts: acts))
    if key != 0, entries.count > Self.scanLimit {
      if lookup.isEmpty {
        for (position, entry) in entries.enumerated() where entry.key != 0 {
          lookup[entry.key] = UInt32(position)
        }
      } else {
        lookup[key] = UInt32(index)
      }
    }
    return index
  }

  /// The index of the character of more than eight bytes whose UTF-8 is `utf8`, if
  /// the table holds it.
  private func indexOfLong(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
    bytes.withUnsafeBufferPointer { stored in
      for index in entries.indices where entries[index].key == 0 {
        let range = range(at: index)
        guard range.count == utf8.count else { continue }
        if memcmp(stored.baseAddress! + range.lowerBound, utf8.baseAddress!, utf8.count) == 0 {
          return index
        }
      }
      return nil
    }
  }

  /// The index and columns of the character whose UTF-8 is `utf8` (one whole character
  /// of several scalars that `SimpleGraphemes.cluster(in:at:)` found), stored and
  /// measured first if it is new: a character drawn again (as on every frame) is
  /// measured once per table.
  mutating func indexAndColumns(ofClusterUTF8 utf8: UnsafeBufferPointer<UInt8>) -> (
    index: Int, columns: Int
  ) {
    let index = index(ofUTF8: utf8)
    let known = entries[index].columns
    if known != Entry.unmeasured { return (index, Int(known)) }
    let columns = SimpleGraphemes.columns(ofCluster: utf8)
    entries[index].columns = UInt8(truncatingIfNeeded: columns)
    return (index, columns)
  }

  /// Appends every character of `other` as it is, and returns the index its first one
  /// has here: `other`'s character `i` is this table's `base + i`. Nothing is looked up,
  /// so this costs a copy of `other`'s bytes.
  mutating func append(contentsOf other: ClusterTable) -> Int {
    let base = entries.count
    let shift = UInt32(truncatingIfNeeded: bytes.count)
    bytes.append(contentsOf: other.bytes)
    entries.reserveCapacity(base + other.entries.count)
    for var entry in other.entries {
      entry.end &+= shift
      entries.append(entry)
    }
    return base
  }

  /// Calls `body` with the UTF-8 the character at `index` is written as: its own, or
  /// `?` for one that would act on a terminal.
  func withWrittenUTF8<Result>(
    at index: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let index = Int(index)
    if entries[index].acts {
      return withUnsafePointer(to: CellText.replacement) {
        body(UnsafeBufferPointer(start: $0, count: 1))
      }
    }
    let range = range(at: index)
    return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// Appends the UTF-8 of the character at `index`, or `?` for one that would act on a
  /// terminal.
  func appendUTF8(at index: UInt32, to output: inout [UInt8]) {
    withWrittenUTF8(at: index) { output.append(contentsOf: $0) }
  }
}
