import Foundation
import KeyedStore

/// Where each input is written: one file, rewritten per input.
private let path: String = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("ripple-fuzz-store-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder + "/store.json"
}()

/// A store file with a generation, beside which each input is also tried as the journal.
/// Text, made into `Data` per input: LeakSanitizer cannot trace a global `Data` to its
/// buffer (its storage pointer carries tag bits) and reports it as leaked.
private let journaledFile =
  #"{"format": "ripple.keyedstore", "version": 1, "generation": "00000000000000aa", "values": {"a": 1}}"#

/// Any bytes as a store file, and as the journal of a valid one: opening either succeeds,
/// and every key then reads or throws a typed error, or fails with a `StoreError` and
/// leaves both files byte for byte as they were. A crash, a hang or a changed file is a
/// finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  unlink(path + ".journal")
  check(file: bytes, journal: nil)
  check(file: Data(journaledFile.utf8), journal: bytes)
  unlink(path + ".journal")
  return 0
}

/// The oracle on one store file and, unless `nil`, its journal.
private func check(file bytes: Data, journal: Data?) {
  guard FileManager.default.createFile(atPath: path, contents: bytes) else { return }
  if let journal {
    guard FileManager.default.createFile(atPath: path + ".journal", contents: journal) else {
      return
    }
  }
  do {
    let store = try Store(persistence: .file(path: path, changeCheckInterval: nil))
    for name in ["a", "b", "count", "name"] {
      _ = try? store.checkedValue(for: StoreKey<Int>(name))
      _ = try? store.checkedValue(for: StoreKey<String>(name + "-text"))
      _ = try? store.checkedValue(for: StoreKey<[String: Double]>(name + "-map"))
    }
    try? store.close()
  } catch {
    // A rejected file must be left exactly as it was.
    // (`contents(atPath:)` leaks its buffer for an empty file, so an empty one is not read.)
    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
    let after = size == 0 ? Data() : FileManager.default.contents(atPath: path) ?? Data()
    if after != bytes { fatalError("a failed open changed the file: \(error)") }
    if let journal {
      let journalPath = path + ".journal"
      let size =
        (try? FileManager.default.attributesOfItem(atPath: journalPath))?[.size] as? Int ?? 0
      let after = size == 0 ? Data() : FileManager.default.contents(atPath: journalPath) ?? Data()
      if after != journal { fatalError("a failed open changed the journal: \(error)") }
    }
  }
}
