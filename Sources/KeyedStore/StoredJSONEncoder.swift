#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Encodes an `Encodable` value straight into a ``StoredJSON``, as `JSONEncoder` with its
/// default strategies would (then read back by `JSONDecoder`), without JSON text between.
///
///     struct Point: Codable { var x: Double; var y: Double }
///     let json = try StoredJSONEncoder.encode(Point(x: 1, y: 2.5))
///     // json == .object(["x": .integer(1), "y": .double(2.5)])
///
/// `JSONEncoder`'s defaults: `Data` as a base64 string, `Date` as its own `Codable`
/// writes it (a `Double`), `URL` as its absolute string, `Decimal` as a number, a number
/// as ``JSONNumber`` reads back the text `JSONEncoder` writes for it; `superEncoder()`
/// under the key `"super"`; a nested value that encodes nothing as `{}`, a top-level one
/// refused.
///
/// Unlike `JSONEncoder`, it refuses instead of crashing: a value nested deeper than
/// ``StoredJSON/encodingDepthLimit`` (counted both as containers within containers and
/// as `encode(to:)` calls under way within each other) throws
/// ``StoredJSONError/tooDeep(path:limit:)`` before it can overflow the thread's stack; a
/// NaN or an infinity throws; so does a second value through one single-value container.
/// A container asked for too deep (which cannot throw) is handed out dead: everything
/// encoded into it throws, and so does the encode as a whole.
///
/// Not thread-safe: one encode runs on one thread, as `encode(to:)` does.
final class StoredJSONEncoder: Encoder {
  /// What every encoder and container of one top-level encode shares.
  final class Session {
    /// How many `encode(to:)` calls of nested values are under way, each inside the last.
    var activeCalls = 0
    /// The first failure of a call that cannot throw (a container asked for too deep),
    /// which fails the whole encode.
    var failure: StoredJSONError?

    /// Records `failure` unless one is recorded.
    func fail(_ failure: StoredJSONError) {
      if self.failure == nil { self.failure = failure }
    }
  }

  /// What this encode shares with its other encoders and containers.
  let session: Session
  /// Where this encoder is in the value.
  let path: EncodingPath
  /// What was encoded here, if anything yet.
  var node: EncodedNode?

  /// The keys from the top to this encoder, made on demand (few `encode(to:)`s ask).
  var codingPath: [any CodingKey] { path.keys }
  /// Nothing: `JSONEncoder`'s is empty unless set, and the store sets none.
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// An encoder at `path`, within the encode `session` belongs to.
  init(session: Session, path: EncodingPath) {
    self.session = session
    self.path = path
  }

  /// Encodes a top-level value.
  ///
  /// - Throws: ``StoredJSONError`` for a value that JSON cannot hold (see the type's
  ///   description), or what its `encode(to:)` threw.
  /// - Complexity: O(*n*) for a value of *n* parts (plus sorting nothing: objects are
  ///   dictionaries).
  static func encode(_ value: some Encodable) throws -> StoredJSON {
    let session = Session()
    let root = StoredJSONEncoder(session: session, path: .root)
    let node = try root.encodeValue(value, at: .root)
    if let failure = session.failure { throw failure }
    guard let node else { throw StoredJSONError.nothingEncoded(type: "\(type(of: value))") }
    return resolve(node)
  }

  /// This encoder's object: made on the first call, the same one on later calls (as in
  /// `JSONEncoder`), dead when too deep or when this encoder holds something else.
  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(KeyedContainer(encoder: self, object: objectBox(), path: path))
  }

  /// This encoder's array, like ``container(keyedBy:)``.
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: self, array: arrayBox(), path: path)
  }

  /// This encoder's single value.
  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  /// The object this encoder holds, made on first use; `nil` (and a failure recorded)
  /// when it is too deep or already holds something else.
  private func objectBox() -> EncodedObject? {
    guard checkDepth(path) else { return nil }
    switch node {
    case nil:
      let object = EncodedObject()
      node = .object(object)
      return object
    case .object(let object): return object
    default:
      session.fail(.conflictingEncoding(path: describePath(path.keys)))
      return nil
    }
  }

  /// The array this encoder holds, like ``objectBox()``.
  private func arrayBox() -> EncodedArray? {
    guard checkDepth(path) else { return nil }
    switch node {
    case nil:
      let array = EncodedArray()
      node = .array(array)
      return array
    case .array(let array): return array
    default:
      session.fail(.conflictingEncoding(path: describePath(path.keys)))
      return nil
    }
  }

  /// Whether a container may open at `path`: fewer than ``StoredJSON/encodingDepthLimit``
  /// containers around it. Records the failure otherwise.
  func checkDepth(_ path: EncodingPath) -> Bool {
    guard path.depth >= StoredJSON.encodingDepthLimit else { return true }
    session.fail(tooDeep(path))
    return false
  }

  /// The error of a value too deep at `path`.
  func tooDeep(_ path: EncodingPath) -> StoredJSONError {
    .tooDeep(path: describePath(path.keys), limit: StoredJSON.encodingDepthLimit)
  }

  /// Encodes a value that a container holds (or the top-level one) at `path`: the types
  /// `JSONEncoder` writes its own way and the common leaves directly, anything else
  /// through its `encode(to:)`, on an encoder of its own.
  ///
  /// This function and the container's `encode` that calls it are the encoder's frames
  /// on every level of a deep value's recursion, so they hold little: the leaves are
  /// looked at in ``leaf(_:at:)``, whose frame is gone before the recursion goes on.
  ///
  /// - Returns: What it encoded, or `nil` when it encoded nothing.
  /// - Throws: ``StoredJSONError/tooDeep(path:limit:)`` when too many calls are under way.
  func encodeValue<T: Encodable>(_ value: T, at path: EncodingPath) throws -> EncodedNode? {
    if let leaf = try leaf(value, at: path) { return leaf }
    let encoder = try enterCall(at: path)
    defer { session.activeCalls -= 1 }
    try value.encode(to: encoder)
    return encoder.node
  }

  /// Counts a nested `encode(to:)` call, and returns the encoder for it.
  ///
  /// - Throws: ``StoredJSONError/tooDeep(path:limit:)`` when too many are under way (one
  ///   for the top-level value, then one per level).
  @inline(never)
  private func enterCall(at path: EncodingPath) throws -> StoredJSONEncoder {
    guard session.activeCalls <= StoredJSON.encodingDepthLimit else { throw tooDeep(path) }
    session.activeCalls += 1
    return StoredJSONEncoder(session: session, path: path)
  }

  /// The error a dead container (asked for too deep, at `path`) throws for every encode.
  @inline(never)
  func deadContainerError(at path: EncodingPath) -> any Error {
    session.failure ?? tooDeep(path)
  }

  /// The value of a type `JSONEncoder` writes its own way (`Data`, `URL`, `Decimal`), or
  /// of a common leaf (written directly to save an encoder); `nil` for any other type.
  @inline(never)
  private func leaf<T: Encodable>(_ value: T, at path: EncodingPath) throws -> EncodedNode? {
    if T.self == String.self { return .value(.string(value as! String)) }
    if T.self == Int.self { return .value(.integer(Int64(value as! Int))) }
    if T.self == Bool.self { return .value(.bool(value as! Bool)) }
    if T.self == Double.self { return .value(try number(value as! Double, at: path)) }
    if T.self == Data.self { return .value(.string((value as! Data).base64EncodedString())) }
    if T.self == URL.self { return .value(.string((value as! URL).absoluteString)) }
    if T.self == Decimal.self {
      guard let number = JSONNumber.value((value as! Decimal).description) else {
        throw StoredJSONError.nonFiniteNumber(path: describePath(path.keys))
      }
      return .value(number)
    }
    return nil
  }

  /// A `Double` as `JSONDecoder` reads back what `JSONEncoder` writes for it.
  ///
  /// - Throws: ``StoredJSONError/nonFiniteNumber(path:)`` for a NaN or an infinity.
  func number(_ value: Double, at path: EncodingPath) throws -> StoredJSON {
    guard let number = JSONNumber.value(value) else {
      throw StoredJSONError.nonFiniteNumber(path: describePath(path.keys))
    }
    return number
  }

  /// A `Float`, like ``number(_:at:)-(Double,_)``.
  func number(_ value: Float, at path: EncodingPath) throws -> StoredJSON {
    guard let number = JSONNumber.value(value) else {
      throw StoredJSONError.nonFiniteNumber(path: describePath(path.keys))
    }
    return number
  }

  /// An integer, as `JSONDecoder` reads it back: an `Int64` when it fits, then a `UInt64`,
  /// then (an `Int128` beyond both) a `Double`.
  static func integer(_ value: some BinaryInteger) -> StoredJSON {
    if let value = Int64(exactly: value) { return .integer(value) }
    if let value = UInt64(exactly: value) { return .unsigned(value) }
    return JSONNumber.value(String(value)) ?? .double(Double(value))
  }

  /// The ``StoredJSON`` of what was encoded, built with a stack of its own rather than
  /// by recursion.
  static func resolve(_ root: EncodedNode) -> StoredJSON {
    /// An array or object being built, and the parts of it not built yet.
    struct Frame {
      /// An object's names, in the order of `parts`; `nil` for an array.
      var names: [String]?
      /// The elements or members' values, as encoded.
      var parts: [EncodedNode]
      /// The index of the next part to build.
      var next = 0
      /// An array's elements built so far.
      var items: [StoredJSON] = []
      /// An object's members built so far.
      var members: [String: StoredJSON] = [:]
    }
    var stack: [Frame] = []
    var node = root
    while true {
      var value: StoredJSON
      // A super-encoder's value is whatever was encoded through it by now, or `{}`.
      while case .deferred(let encoder) = node { node = encoder.node ?? .value(.object([:])) }
      switch node {
      case .value(let leaf): value = leaf
      case .array(let array) where array.items.isEmpty: value = .array([])
      case .object(let object) where object.members.isEmpty: value = .object([:])
      case .array(let array):
        stack.append(Frame(names: nil, parts: array.items))
        node = array.items[0]
        continue
      case .object(let object):
        stack.append(Frame(names: Array(object.members.keys), parts: Array(object.members.values)))
        node = stack[stack.count - 1].parts[0]
        continue
      case .deferred: continue
      }
      // Put the value in its container; close each container that is complete.
      while true {
        guard !stack.isEmpty else { return value }
        let last = stack.count - 1
        let index = stack[last].next
        if let names = stack[last].names {
          stack[last].members[names[index]] = value
        } else {
          stack[last].items.append(value)
        }
        stack[last].next += 1
        if stack[last].next < stack[last].parts.count {
          node = stack[last].parts[index + 1]
          break
        }
        let frame = stack.removeLast()
        value = frame.names == nil ? .array(frame.items) : .object(frame.members)
      }
    }
  }
}

/// What an encoder or container holds while a value is encoded: a finished value, or an
/// array or object that containers still add to (shared, so that a nested container
/// handed out earlier keeps adding to the same one).
enum EncodedNode {
  /// A finished value: a leaf, or a nested value's whole result.
  case value(StoredJSON)
  /// An array that containers may still add to.
  case array(EncodedArray)
  /// An object that containers may still add to.
  case object(EncodedObject)
  /// What a `superEncoder()` will have encoded, read when the value is resolved.
  case deferred(StoredJSONEncoder)
}

/// An array being encoded.
final class EncodedArray {
  /// The elements so far.
  var items: [EncodedNode] = []

  /// Appends what a nested value encoded: `{}` when it encoded nothing, as in
  /// `JSONEncoder`.
  @inline(never)
  func append(_ node: EncodedNode?) {
    items.append(node ?? .value(.object([:])))
  }
}

/// An object being encoded. A name encoded twice keeps the later value, as in
/// `JSONEncoder`.
final class EncodedObject {
  /// The members so far.
  var members: [String: EncodedNode] = [:]

  /// Sets a member to what a nested value encoded: `{}` when it encoded nothing, as in
  /// `JSONEncoder`.
  @inline(never)
  func set(_ node: EncodedNode?, for key: some CodingKey) {
    members[key.stringValue] = node ?? .value(.object([:]))
  }
}

/// A coding path, from the leaf up: a child's path costs one link, not a copy of its
/// parent's.
indirect enum EncodingPath {
  /// The top-level value's path: no keys.
  case root
  /// The path `key` below `parent`, `depth` keys long.
  case child(parent: EncodingPath, key: any CodingKey, depth: Int)

  /// How many keys the path has.
  var depth: Int {
    switch self {
    case .root: 0
    case .child(_, _, let depth): depth
    }
  }

  /// The path one key further down.
  func appending(_ key: any CodingKey) -> EncodingPath {
    .child(parent: self, key: key, depth: depth + 1)
  }

  /// The keys from the top.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var path = self
    while case .child(let parent, let key, _) = path {
      keys.append(key)
      path = parent
    }
    return keys.reversed()
  }
}

/// The keys the encoder makes itself: array indices (named as `JSONEncoder` names them)
/// and `"super"`.
struct StoredJSONKey: CodingKey {
  /// The name, or `Index n` for an index.
  var stringValue: String
  /// The index, for an array element.
  var intValue: Int?

  /// A named key.
  init(stringValue: String) {
    self.stringValue = stringValue
  }

  /// An array index, named as `JSONEncoder` names it.
  init(intValue: Int) {
    stringValue = "Index \(intValue)"
    self.intValue = intValue
  }

  /// `superEncoder()`'s key.
  static let superKey = StoredJSONKey(stringValue: "super")
}
