// The containers StoredJSONEncoder hands out. Each holds its array or object (or `nil`
// when it was asked for too deep, and then every encode into it throws) and adds to it
// in place, so that a nested container handed out earlier keeps adding to the same one.
extension StoredJSONEncoder {
  /// An object's container.
  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The encoder it belongs to, for its session and helpers.
    let encoder: StoredJSONEncoder
    /// The object, or `nil` when it was asked for too deep.
    let object: EncodedObject?
    /// Where the object is in the value.
    let path: EncodingPath

    /// The keys from the top to the object.
    var codingPath: [any CodingKey] { path.keys }

    /// Sets the member `key` to `node`.
    ///
    /// - Throws: The encode's failure when this container is dead.
    private func set(_ node: @autoclosure () throws -> EncodedNode, for key: Key) throws {
      guard let object else { throw encoder.deadContainerError(at: path) }
      let node = try node()
      object.members[key.stringValue] = node
    }

    // The leaves: each member set at once, without an encoder of its own.

    /// Sets the member `key` to `null`.
    mutating func encodeNil(forKey key: Key) throws { try set(.value(.null), for: key) }
    /// Sets the member `key` to a `Bool`.
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      try set(.value(.bool(value)), for: key)
    }
    /// Sets the member `key` to a string.
    mutating func encode(_ value: String, forKey key: Key) throws {
      try set(.value(.string(value)), for: key)
    }
    /// Sets the member `key` to a `Double`, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Double, forKey key: Key) throws {
      try set(.value(encoder.number(value, at: path.appending(key))), for: key)
    }
    /// Sets the member `key` to a `Float`, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Float, forKey key: Key) throws {
      try set(.value(encoder.number(value, at: path.appending(key))), for: key)
    }
    /// Sets the member `key` to an integer (and so on for each width below).
    mutating func encode(_ value: Int, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try setInteger(value, key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try setInteger(value, key) }

    /// Sets the member `key` to an integer.
    private func setInteger(_ value: some BinaryInteger, _ key: Key) throws {
      try set(.value(StoredJSONEncoder.integer(value)), for: key)
    }

    /// Sets the member `key` to what `value` encodes.
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      // On every level of a deep value's recursion: as few temporaries as can be (a debug
      // build gives each its own stack slot), the cold paths in calls of their own.
      guard let object else { throw encoder.deadContainerError(at: path) }
      let node = try encoder.encodeValue(value, at: path.appending(key))
      object.set(node, for: key)
    }

    /// Sets the member `key` to what `value` encodes, unless it is `nil`.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
      // The same, saving the standard library's default's two frames per level.
      guard let value else { return }
      guard let object else { throw encoder.deadContainerError(at: path) }
      let node = try encoder.encodeValue(value, at: path.appending(key))
      object.set(node, for: key)
    }

    /// The object at the member `key`: the one there, or a new one (dead when too deep).
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy _: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nestedPath = path.appending(key)
      var nested: EncodedObject?
      if let object, encoder.checkDepth(nestedPath) {
        if case .object(let existing) = object.members[key.stringValue] {
          nested = existing
        } else {
          let created = EncodedObject()
          object.members[key.stringValue] = .object(created)
          nested = created
        }
      }
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(encoder: encoder, object: nested, path: nestedPath))
    }

    /// The array at the member `key`: the one there, or a new one (dead when too deep).
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nestedPath = path.appending(key)
      var nested: EncodedArray?
      if let object, encoder.checkDepth(nestedPath) {
        if case .array(let existing) = object.members[key.stringValue] {
          nested = existing
        } else {
          let created = EncodedArray()
          object.members[key.stringValue] = .array(created)
          nested = created
        }
      }
      return UnkeyedContainer(encoder: encoder, array: nested, path: nestedPath)
    }

    /// An encoder for the member `"super"`.
    mutating func superEncoder() -> any Encoder { superEncoder(named: StoredJSONKey.superKey) }

    /// An encoder for the member `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    /// An encoder whose value becomes the member `key`, when the whole value is resolved.
    private func superEncoder(named key: any CodingKey) -> any Encoder {
      let child = StoredJSONEncoder(session: encoder.session, path: path.appending(key))
      object?.members[key.stringValue] = .deferred(child)
      return child
    }
  }

  /// An array's container.
  struct UnkeyedContainer: UnkeyedEncodingContainer {
    /// The encoder it belongs to, for its session and helpers.
    let encoder: StoredJSONEncoder
    /// The array, or `nil` when it was asked for too deep.
    let array: EncodedArray?
    /// Where the array is in the value.
    let path: EncodingPath

    /// The keys from the top to the array.
    var codingPath: [any CodingKey] { path.keys }
    /// How many elements were encoded.
    var count: Int { array?.items.count ?? 0 }

    /// The path of the next element.
    private var nextPath: EncodingPath { path.appending(StoredJSONKey(intValue: count)) }

    /// Appends `node`.
    ///
    /// - Throws: The encode's failure when this container is dead.
    private func append(_ node: @autoclosure () throws -> EncodedNode) throws {
      guard let array else { throw encoder.deadContainerError(at: path) }
      let node = try node()
      array.items.append(node)
    }

    // The leaves: each element appended at once, without an encoder of its own.

    /// Appends `null`.
    mutating func encodeNil() throws { try append(.value(.null)) }
    /// Appends a `Bool`.
    mutating func encode(_ value: Bool) throws { try append(.value(.bool(value))) }
    /// Appends a string.
    mutating func encode(_ value: String) throws { try append(.value(.string(value))) }
    /// Appends a `Double`, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Double) throws {
      try append(.value(encoder.number(value, at: nextPath)))
    }
    /// Appends a `Float`, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Float) throws {
      try append(.value(encoder.number(value, at: nextPath)))
    }
    /// Appends an integer (and so on for each width below).
    mutating func encode(_ value: Int) throws { try appendInteger(value) }
    mutating func encode(_ value: Int8) throws { try appendInteger(value) }
    mutating func encode(_ value: Int16) throws { try appendInteger(value) }
    mutating func encode(_ value: Int32) throws { try appendInteger(value) }
    mutating func encode(_ value: Int64) throws { try appendInteger(value) }
    mutating func encode(_ value: Int128) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt8) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt16) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt32) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt64) throws { try appendInteger(value) }
    mutating func encode(_ value: UInt128) throws { try appendInteger(value) }

    /// Appends an integer.
    private func appendInteger(_ value: some BinaryInteger) throws {
      try append(.value(StoredJSONEncoder.integer(value)))
    }

    /// Appends what `value` encodes.
    mutating func encode<T: Encodable>(_ value: T) throws {
      // As the keyed container's: few temporaries, on every level of a deep value.
      guard let array else { throw encoder.deadContainerError(at: path) }
      let node = try encoder.encodeValue(value, at: nextPath)
      array.append(node)
    }

    /// Appends a new object (none when too deep), and returns its container.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      let nestedPath = nextPath
      var nested: EncodedObject?
      if let array, encoder.checkDepth(nestedPath) {
        let created = EncodedObject()
        array.items.append(.object(created))
        nested = created
      }
      return KeyedEncodingContainer(
        KeyedContainer<NestedKey>(encoder: encoder, object: nested, path: nestedPath))
    }

    /// Appends a new array (none when too deep), and returns its container.
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let nestedPath = nextPath
      var nested: EncodedArray?
      if let array, encoder.checkDepth(nestedPath) {
        let created = EncodedArray()
        array.items.append(.array(created))
        nested = created
      }
      return UnkeyedContainer(encoder: encoder, array: nested, path: nestedPath)
    }

    /// Appends what an encoder of its own will have encoded when the value is resolved.
    mutating func superEncoder() -> any Encoder {
      let child = StoredJSONEncoder(session: encoder.session, path: nextPath)
      array?.items.append(.deferred(child))
      return child
    }
  }

  /// A single value's container: the value is the encoder's own.
  struct SingleValueContainer: SingleValueEncodingContainer {
    /// The encoder whose value this is.
    let encoder: StoredJSONEncoder

    /// The keys from the top to the value.
    var codingPath: [any CodingKey] { encoder.path.keys }

    /// Makes `node` the encoder's value.
    ///
    /// - Throws: ``StoredJSONError/conflictingEncoding(path:)`` when it has one already
    ///   (where `JSONEncoder` stops the process).
    private func set(_ node: @autoclosure () throws -> EncodedNode) throws {
      guard encoder.node == nil else {
        throw StoredJSONError.conflictingEncoding(path: describePath(codingPath))
      }
      let node = try node()
      guard encoder.node == nil else {
        throw StoredJSONError.conflictingEncoding(path: describePath(codingPath))
      }
      encoder.node = node
    }

    /// Makes `null` the value.
    mutating func encodeNil() throws { try set(.value(.null)) }
    /// Makes a `Bool` the value.
    mutating func encode(_ value: Bool) throws { try set(.value(.bool(value))) }
    /// Makes a string the value.
    mutating func encode(_ value: String) throws { try set(.value(.string(value))) }
    /// Makes a `Double` the value, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Double) throws {
      try set(.value(encoder.number(value, at: encoder.path)))
    }
    /// Makes a `Float` the value, as it reads back from `JSONEncoder`'s text.
    mutating func encode(_ value: Float) throws {
      try set(.value(encoder.number(value, at: encoder.path)))
    }
    /// Makes an integer the value (and so on for each width below).
    mutating func encode(_ value: Int) throws { try setInteger(value) }
    mutating func encode(_ value: Int8) throws { try setInteger(value) }
    mutating func encode(_ value: Int16) throws { try setInteger(value) }
    mutating func encode(_ value: Int32) throws { try setInteger(value) }
    mutating func encode(_ value: Int64) throws { try setInteger(value) }
    mutating func encode(_ value: Int128) throws { try setInteger(value) }
    mutating func encode(_ value: UInt) throws { try setInteger(value) }
    mutating func encode(_ value: UInt8) throws { try setInteger(value) }
    mutating func encode(_ value: UInt16) throws { try setInteger(value) }
    mutating func encode(_ value: UInt32) throws { try setInteger(value) }
    mutating func encode(_ value: UInt64) throws { try setInteger(value) }
    mutating func encode(_ value: UInt128) throws { try setInteger(value) }

    /// Makes an integer the encoder's value.
    private func setInteger(_ value: some BinaryInteger) throws {
      try set(.value(StoredJSONEncoder.integer(value)))
    }

    /// Makes what `value` encodes the value.
    mutating func encode<T: Encodable>(_ value: T) throws {
      guard encoder.node == nil else {
        throw StoredJSONError.conflictingEncoding(path: describePath(codingPath))
      }
      // On an encoder of its own at the same path, as JSONEncoder does.
      let node = try encoder.encodeValue(value, at: encoder.path)
      try set(node ?? .value(.object([:])))
    }
  }
}
