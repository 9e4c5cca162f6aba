import Foundation
import KeyedStore

/// Where each input is written: one file, rewritten per input.
private let path: String = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("ripple-fuzz-store-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder + "/store.json"
}()

/// Any bytes as a store file: opening either succeeds, and every key then reads or throws
/// a typed error, or fails with a `StoreError` and leaves the file byte for byte as it was.
/// A crash, a hang or a changed file is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
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
  }
  return 0
}
