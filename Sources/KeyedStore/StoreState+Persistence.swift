// The state a persisting store keeps beside its entries, all under the store's lock.

extension StoreState {
  /// Creates and binds the entry of `key`, decoding the file's value for it, if any:
  /// the first typed access of a key (read, observe, stage) is where its type is known.
  ///
  /// Decoding runs under the store's lock, so a `Codable` conformance must not use
  /// the store.
  @usableFromInline
  mutating func makeEntry<Value: Sendable>(_ key: StoreKey<Value>) -> TypedEntry<Value> {
    let entry = TypedEntry(key)
    entries.bind(entry, to: key)
    if !everyKeyObservers.isEmpty { addEveryKeyObservers(to: entry) }
    guard let filePath, key.isPersisted, Value.self is any Codable.Type else { return entry }
    entry.persists = true
    if let json = stored.removeValue(forKey: key.name) {
      do {
        entry.value = try json.decode(as: Value.self)
      } catch {
        // The JSON stays in the file (the entry is not dirty) until the key is staged.
        let failure = StoreError.undecodableValue(
          key: key.name, type: "\(Value.self)", path: filePath, reason: describe(error))
        undecodable[key.name] = failure
        reportUndecodable?(failure)
      }
    }
    return entry
  }

  /// The entry of `key` for a read: bound now if the file holds a value for it, so that
  /// reading a key that was never staged in memory still finds its stored value.
  @usableFromInline
  mutating func entryForReading<Value: Sendable>(_ key: StoreKey<Value>) -> TypedEntry<Value>? {
    if let existing = existingEntry(for: key) { return existing }
    guard entries[key] == nil, stored[key.name] != nil else { return nil }
    return makeEntry(key)
  }

  /// Marks a persisting entry changed.
  ///
  /// - Returns: Whether the caller must queue a write (no write was queued yet); the
  ///   caller does so after releasing the lock.
  @usableFromInline
  mutating func markDirty(_ entry: StoreEntry) -> Bool {
    entry.isDirty = true
    dirty.append(entry)
    if !undecodable.isEmpty { undecodable[entry.name] = nil }
    if !pendingExternal.isEmpty { pendingExternal[entry.name] = nil }
    guard !writeRequested else { return false }
    writeRequested = true
    return true
  }

  /// Takes the dirty entries and their current values for a write, marking them clean:
  /// a stage after this dirties them again and queues the next write.
  mutating func takeDirty() -> [(StoreEntry, any Sendable)] {
    writeRequested = false
    guard !dirty.isEmpty else { return [] }
    var taken: [(StoreEntry, any Sendable)] = []
    taken.reserveCapacity(dirty.count)
    for entry in dirty {
      entry.isDirty = false
      if let value = entry.anyValue { taken.append((entry, value)) }
    }
    dirty.removeAll(keepingCapacity: dirty.count < 1_024)
    return taken
  }

  /// Marks entries dirty again after a failed write, so the next write retries them.
  mutating func markDirtyAgain(_ entries: [StoreEntry]) {
    for entry in entries where !entry.isDirty {
      entry.isDirty = true
      dirty.append(entry)
    }
  }

  /// Takes in values another store wrote: unbound keys get the new JSON at once; bound
  /// persisting keys that this store has not changed since get a pending mutation.
  ///
  /// Keys in `ours` are left out: this store is writing them, and its value wins.
  mutating func noteExternal(_ changes: StoreBackendChanges, except ours: [String: StoredJSON]) {
    let origins = changes.writtenInThisProcess
    for (name, value) in changes.changed where ours[name] == nil {
      let json = value.json
      guard let entry = entries[name] else {
        if !everyKeyObservers.isEmpty {
          let origin: MutationOrigin = origins.contains(name) ? .anotherStore : .anotherProcess
          pendingUntyped[name] = (pendingUntyped[name]?.old ?? stored[name], json, origin)
        }
        stored[name] = json
        continue
      }
      if entry.persists && !entry.isDirty {
        pendingExternal[name] = (json, origins.contains(name) ? .anotherStore : .anotherProcess)
      }
    }
    for name in changes.removed where entries[name] == nil { stored[name] = nil }
  }

  /// Commits the pending external values, in key-name order.
  ///
  /// - Returns: Their deliveries.
  ///
  /// A value that does not decode as its key's type gives the key no value (so
  /// `value(for:)` reads `nil`, as a store opened now would), makes `checkedValue(for:)`
  /// throw, and is reported; its observers hear nothing, as a key cannot be removed by a
  /// mutation. Changes of keys no typed key has used go to the observers of every key.
  mutating func commitExternal(at timestamp: ContinuousClock.Instant) -> [any Delivery] {
    var names = Set(pendingExternal.keys)
    names.formUnion(pendingUntyped.keys)
    var deliveries: [any Delivery] = []
    for name in names.sorted() {
      if let (old, new, origin) = pendingUntyped.removeValue(forKey: name), entries[name] == nil {
        deliveries.append(
          untypedDelivery(name: name, old: old, new: new, origin: origin, at: timestamp))
      }
      // A key staged here since is written by this store later: it wins.
      guard let (json, origin) = pendingExternal.removeValue(forKey: name),
        let entry = entries[name], !entry.isDirty
      else { continue }
      do {
        deliveries.append(try entry.commitStored(json, at: timestamp, origin: origin))
        undecodable[name] = nil
      } catch {
        entry.clearValue()
        let failure = StoreError.undecodableValue(
          key: name, type: "\(entry.valueType)", path: filePath ?? "", reason: describe(error))
        undecodable[name] = failure
        reportUndecodable?(failure)
      }
    }
    return deliveries
  }
}

extension StoreStorage {
  /// ``StoreState/markDirty(_:)``, for a caller that holds the lock: a call through the
  /// storage object rather than an `inout` of its state, so that inlined stages keep the
  /// state in place.
  @usableFromInline
  func markDirty(_ entry: StoreEntry) -> Bool { value.markDirty(entry) }
}
