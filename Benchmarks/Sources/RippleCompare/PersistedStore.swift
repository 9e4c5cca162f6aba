import Foundation
@_spi(Testing) import KeyedStore
import MallocStats

/// `store_stage_notify` on a store that persists to a file: the same stage and observer,
/// plus marking the key dirty; the write itself happens on a background queue.
enum PersistedStoreWorkloads {
  static let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("RippleCompare-\(getpid())").path
  static let store = try! Store(
    persistence: .file(path: "\(folder)/stage.json", changeCheckInterval: nil))
  static let key = StoreKey<Int>("benchmark")
  nonisolated(unsafe) static var sum = 0
  static let receipt = store.registerObserver(for: key) { sum &+= $0.newValue }

  static func stageNotify(_ n: Int) {
    _ = receipt
    for i in 0..<n { store.stage(i, for: key) }
  }

  /// Writes per 10,000 stages, the flush after them, and opening a file of 10,000 keys.
  static func printFigures() {
    let stages = try! Store(
      persistence: .file(path: "\(folder)/coalesce.json", changeCheckInterval: nil))
    let counter = StoreKey<Int>("counter")
    for i in 1...10_000 { stages.stage(i, for: counter) }
    let flushStart = DispatchTime.now().uptimeNanoseconds
    try! stages.flush()
    let flushMicroseconds = Double(DispatchTime.now().uptimeNanoseconds - flushStart) / 1_000
    print(
      "store_persisted: 10,000 stages → \(stages.persistedWriteCount) file write(s); "
        + "flush after them \(String(format: "%.0f", flushMicroseconds)) µs")

    let path = "\(folder)/ten-thousand.json"
    do {
      let writer = try! Store(persistence: .file(path: path, changeCheckInterval: nil))
      try! writer.batch { batch in
        for i in 0..<10_000 { batch.stage(i, for: StoreKey<Int>("key.\(i)")) }
      }
      try! writer.close()
    }
    // Let the closed writer's queued work finish and free its memory before measuring.
    usleep(100_000)
    let bytesBefore = Int(ripple_malloc_in_use_bytes())
    let openStart = DispatchTime.now().uptimeNanoseconds
    let opened = try! Store(persistence: .file(path: path, changeCheckInterval: nil))
    let openMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - openStart) / 1_000_000
    let bytesOpen = Int(ripple_malloc_in_use_bytes()) - bytesBefore
    let readStart = DispatchTime.now().uptimeNanoseconds
    var total = 0
    for i in 0..<10_000 { total &+= opened.value(for: StoreKey<Int>("key.\(i)")) ?? 0 }
    let readMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - readStart) / 1_000_000
    let bytesRead = Int(ripple_malloc_in_use_bytes()) - bytesBefore
    let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    print(
      "store_persisted: open a 10,000-key file (\(fileBytes / 1_024) KiB) "
        + "\(String(format: "%.1f", openMilliseconds)) ms, \(bytesOpen / 1_024) KiB in use; "
        + "first read of every key \(String(format: "%.1f", readMilliseconds)) ms, "
        + "\(bytesRead / 1_024) KiB in use (checksum \(total & 0xFF))")
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// `store_paced_stage_cpu` (issue 32 item 5): a store persisting K keys, one of them
  /// staged every 20 ms for `seconds`, with no flush: the share of a core the process
  /// spends (its user + system time ÷ the time that passed), background writes included.
  static func pacedStageCPU(seconds: Double) -> [String: Double] {
    var figures: [String: Double] = [:]
    var line = "store_paced_stage_cpu: a key staged every 20 ms for \(format(seconds)) s →"
    for keys in [10, 10_000, 100_000] {
      let path = "\(folder)/paced-\(keys).json"
      let store = try! Store(persistence: .file(path: path, changeCheckInterval: nil))
      let names = (0..<keys).map { StoreKey<Int>("key.\($0)") }
      try! store.batch { batch in
        for key in names { batch.stage(0, for: key) }
      }
      try! store.flush()
      store.stage(-1, for: names[0])
      try! store.flush()
      let cpuStart = processCPUSeconds()
      let start = DispatchTime.now().uptimeNanoseconds
      let end = start + UInt64(seconds * 1e9)
      var next = start
      var value = 1
      while next < end {
        store.stage(value, for: names[0])
        value += 1
        next += 20_000_000
        let now = DispatchTime.now().uptimeNanoseconds
        if next > now { usleep(UInt32((next - now) / 1_000)) }
      }
      let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      let share = (processCPUSeconds() - cpuStart) / wall
      try! store.close()
      figures["keys_\(keys)_core_percent"] = share * 100
      line += " \(keys) keys \(String(format: "%.1f", share * 100))%"
    }
    print(line + " of a core")
    try? FileManager.default.removeItem(atPath: folder)
    return figures
  }

  /// The process's user + system CPU time so far.
  private static func processCPUSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  }
}
