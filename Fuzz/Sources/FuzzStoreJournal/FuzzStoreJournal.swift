import Foundation
import KeyedStore

/// Where each input is written: one store file and its journal, rewritten per input.
private let path: String = {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("ripple-fuzz-journal-\(getpid())").path
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder + "/store.json"
}()

/// A store file whose journal is the input's. Text, made into `Data` per input:
/// LeakSanitizer cannot trace a global `Data` to its buffer and reports it as leaked.
private let journaledFile =
  #"{"format": "ripple.keyedstore", "version": 1, "generation": "00000000000000aa", "values": {"a": 1}}"#

/// The journal's header, for the store file's generation.
private let header = #"{"format":"ripple.keyedstore.journal","generation":"00000000000000aa"}"#

/// A journal built from the input (see ``JournalInput``): a header, then record lines
/// whose strings are `\uXXXX` escapes (lone and paired surrogates among them), short
/// escapes and raw UTF-8. The oracle: nothing crashes; a journal of records always opens
/// (a lone surrogate costs nothing), and every key reads as the last record wrote it,
/// each lone surrogate as U+FFFD; written back (appended as a journal line by the
/// store's own writer) and read again, every value is the same; a journal with a line
/// written as the input gave it opens, and every key reads or throws a `StoreError`, or
/// it fails with a `StoreError` and leaves both files byte for byte as they were.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = JournalInput(Array(UnsafeBufferPointer(start: data, count: size)))
  var journal = Data((header + "\n").utf8)
  journal.append(contentsOf: input.records)
  check(input, journal: journal)
  unlink(path + ".journal")
  return 0
}

/// The oracle on the journal `input` describes, written out as `journal`.
private func check(_ input: JournalInput, journal: Data) {
  let file = Data(journaledFile.utf8)
  guard FileManager.default.createFile(atPath: path, contents: file),
    FileManager.default.createFile(atPath: path + ".journal", contents: journal)
  else { return }
  do {
    let store = try Store(persistence: .file(path: path, changeCheckInterval: nil))
    let read = readEveryKey(store, expecting: input.hasRawLine ? nil : input.expected)
    guard !input.hasRawLine else {
      try? store.close()
      return
    }
    // Each value written back under a second name, by the store's writer, then read again.
    var copies = input.expected
    for (key, value) in read {
      store.stage(value, for: StoreKey<String>(key + "-copy"))
      copies[key + "-copy"] = value
    }
    do {
      try store.close()
      let reopened = try Store(persistence: .file(path: path, changeCheckInterval: nil))
      _ = readEveryKey(reopened, expecting: copies)
      try reopened.close()
    } catch {
      fatalError("writing back the values failed: \(error)")
    }
  } catch {
    if !input.hasRawLine { fatalError("a journal of records was refused: \(error)") }
    // A rejected journal must leave both files exactly as they were.
    if contents(path) != file { fatalError("a failed open changed the file: \(error)") }
    if contents(path + ".journal") != journal {
      fatalError("a failed open changed the journal: \(error)")
    }
  }
}

/// Reads every key (and its copy) as a `String`: a value or a `StoreError`, nothing else.
/// With `expected`, each must read as it says, and a key it lacks must have no value.
///
/// - Returns: The values read of the keys (not the copies).
private func readEveryKey(_ store: Store, expecting expected: [String: String]?)
  -> [String: String]
{
  var read: [String: String] = [:]
  for key in JournalInput.keys.flatMap({ [$0, $0 + "-copy"] }) {
    let result = Result { () throws(StoreError) in
      try store.checkedValue(for: StoreKey<String>(key))
    }
    if let expected {
      // Scalar by scalar: `==` on strings would accept canonically equivalent text.
      guard case .success(let value) = result,
        value.map({ Array($0.unicodeScalars) }) == expected[key].map({ Array($0.unicodeScalars) })
      else {
        fatalError("\(key) read as \(result), not \(String(describing: expected[key]))")
      }
    }
    if case .success(let value?) = result, !key.hasSuffix("-copy") { read[key] = value }
  }
  _ = Result { () throws(StoreError) in try store.checkedValue(for: StoreKey<Int>("a")) }
  return read
}

/// The bytes of the file at `path` (`contents(atPath:)` leaks its buffer for an empty
/// file, so an empty one is not read).
private func contents(_ path: String) -> Data {
  let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
  return size == 0 ? Data() : FileManager.default.contents(atPath: path) ?? Data()
}
