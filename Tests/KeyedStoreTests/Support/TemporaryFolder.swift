import Foundation
import KeyedStore

/// A fresh folder under the system's temporary folder, removed when released: each
/// test's store file lives in its own, so tests never share a file by accident.
final class TemporaryFolder: Sendable {
  let path: String

  init() {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("KeyedStoreTests-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path in the folder.
  func file(_ name: String = "store.json") -> String { "\(path)/\(name)" }

  /// The names in the folder.
  var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
}

/// The bytes of a file, or `nil` when it is missing.
func bytes(at path: String) -> Data? {
  // FileManager.contents(atPath:) leaks its buffer for an empty file (LeakSanitizer).
  let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
  guard let size else { return nil }
  return size == 0 ? Data() : FileManager.default.contents(atPath: path)
}

/// The text of a file, or `""` when it is missing.
func text(at path: String) -> String {
  bytes(at: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
}

/// Writes `text` to `path`, replacing what is there.
func write(_ text: String, to path: String) {
  _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}

/// A store file's text with the given schema version and values (JSON, as written).
func storeFile(version: Int = 1, values: String) -> String {
  #"{"format": "ripple.keyedstore", "version": \#(version), "values": \#(values)}"#
}

/// Opens a file-backed store that looks for other stores' changes only when asked.
func openStore(
  _ path: String, migrations: [StoreMigration] = [], ifCorrupt: CorruptFileHandling = .throwError
) throws -> Store {
  try Store(
    persistence: .file(
      path: path, migrations: migrations, ifCorrupt: ifCorrupt, changeCheckInterval: nil))
}

/// Waits until `condition` holds, for at most ten seconds: for what a background thread
/// does. Returns whether it held; tests assert that, never how long it took.
func eventually(_ condition: () -> Bool) -> Bool {
  for _ in 0..<2_000 {
    if condition() { return true }
    usleep(5_000)
  }
  return condition()
}
