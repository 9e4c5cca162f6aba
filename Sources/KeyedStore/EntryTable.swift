/// A store's entries by key name, each found by the hash its key computed once.
///
/// `stage` finds its entry here on every write, and two costs of a `[String: StoreEntry]`
/// lookup were most of `store_stage_notify`'s instructions beyond its baseline's: hashing
/// the name (SipHash over its bytes: the lookup was 341 of the stage's 737 instructions)
/// and retaining and releasing the entry the lookup returned. So a ``StoreKey`` hashes
/// its name once, when it is made, and the table indexes its slots by that hash directly
/// (no `Hasher` runs on a lookup); and it holds its entries unretained beside an array
/// that owns them (entries are never removed, so every unretained reference stays valid
/// as long as the table).
///
/// Guarded by the store's lock, as the rest of ``StoreState``.
@usableFromInline
struct EntryTable {
  /// One slot of the open-addressed table: an entry and its name's hash, or empty.
  @usableFromInline
  struct Slot {
    @usableFromInline
    var hash: UInt32
    @usableFromInline
    var entry: Unmanaged<StoreEntry>?
  }

  /// The slots, a power of two of them, at most half full; probed linearly from the
  /// hash's low bits. Entries are never removed, so no slot is ever emptied again.
  @usableFromInline
  var slots = [Slot](repeating: Slot(hash: 0, entry: nil), count: 8)
  /// Every entry, in the order they were bound; never shrinks. It keeps the entries the
  /// slots reference unretained.
  var owned: [StoreEntry] = []

  @usableFromInline
  init() {}

  /// The entry named `name`, whose hash is `hash`, unretained, if it is bound.
  @inlinable
  func unretainedEntry(named name: String, hash: UInt32) -> Unmanaged<StoreEntry>? {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: hash) & mask
    while let entry = slots[index].entry {
      if slots[index].hash == hash, entry._withUnsafeGuaranteedRef({ $0.name == name }) {
        return entry
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// The entry named `name`, if it is bound.
  @usableFromInline
  subscript(name: String) -> StoreEntry? {
    unretainedEntry(named: name, hash: EntryName.hash(of: name))?.takeUnretainedValue()
  }

  /// The entry named `key`'s name, if it is bound, unretained: found by the hash the key
  /// computed when it was made.
  @inlinable
  func unretainedEntry<Value>(for key: StoreKey<Value>) -> Unmanaged<StoreEntry>? {
    unretainedEntry(named: key.name, hash: key.nameHash)
  }

  /// The entry named `key`'s name, if it is bound.
  @inlinable
  subscript<Value>(key: StoreKey<Value>) -> StoreEntry? {
    unretainedEntry(for: key)?.takeUnretainedValue()
  }

  /// Binds `entry` to `key`'s name, which must be unbound.
  @usableFromInline
  mutating func bind<Value>(_ entry: StoreEntry, to key: StoreKey<Value>) {
    owned.append(entry)
    if owned.count * 2 > slots.count {
      // Double, and place every entry again by its hash.
      let old = slots
      slots = [Slot](repeating: Slot(hash: 0, entry: nil), count: old.count * 2)
      for slot in old where slot.entry != nil { place(slot) }
    }
    place(Slot(hash: key.nameHash, entry: Unmanaged.passUnretained(entry)))
  }

  /// Puts `slot` in the first empty slot from its hash on.
  private mutating func place(_ slot: Slot) {
    let mask = slots.count - 1
    var index = Int(truncatingIfNeeded: slot.hash) & mask
    while slots[index].entry != nil { index = (index + 1) & mask }
    slots[index] = slot
  }
}

/// How a table hashes key names.
enum EntryName {
  /// The hash a table finds `name` by; the same for every name equal to it (it is the
  /// string's own `hashValue`, which follows `String`'s equality), and for every key of
  /// that name.
  static func hash(of name: String) -> UInt32 {
    UInt32(truncatingIfNeeded: name.hashValue)
  }
}
