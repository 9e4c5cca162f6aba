// The store's figures on PostgreSQL beside the same figures on a store file, in one run:
//
//     eval "$(bash .ci/postgresql-start)"
//     swift run -c release --package-path Benchmarks StoreBackendFigures [--quick]
//
// Rows: a change seen by a second process (p50/p95), one change + flush(), a cold open
// of 10,000 keys, and update() throughput with three processes on one key. Figures are
// printed, never asserted.
import Foundation
import KeyedStore
import KeyedStorePostgreSQL
import PostgresNIO

/// Nanoseconds on the monotonic clock, which every process of the machine shares.
func monotonicNanoseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

enum Backend: String {
  case file, postgres

  func persistence(_ name: String) -> Persistence {
    switch self {
    case .file:
      return .file(path: NSTemporaryDirectory() + "ripple-figures-\(name).json")
    case .postgres:
      let socket = ProcessInfo.processInfo.environment["RIPPLE_POSTGRES_SOCKET"] ?? ""
      return .postgreSQL(
        PostgreSQLBackend.Configuration(
          connection: .init(
            unixSocketPath: socket, username: "postgres", password: nil, database: "postgres"),
          namespace: "figures-\(name)"))
    }
  }
}

let stamp = StoreKey<Int64>("stamp")
let counter = StoreKey<Int>("counter")
let arguments = CommandLine.arguments

// Child modes: what the second process of a row does.
if arguments.count >= 4, arguments[1] == "--listen" {
  // Prints the latency of each stamp it hears, until stdin closes.
  let backend = Backend(rawValue: arguments[2])!
  let store = try Store(persistence: backend.persistence(arguments[3]))
  _ = store.registerObserver(for: stamp) { mutation in
    let latency = monotonicNanoseconds() - mutation.newValue
    FileHandle.standardOutput.write(Data("\(latency)\n".utf8))
  }
  FileHandle.standardOutput.write(Data("ready\n".utf8))
  _ = FileHandle.standardInput.readDataToEndOfFile()
  exit(0)
}
if arguments.count >= 5, arguments[1] == "--increment" {
  let backend = Backend(rawValue: arguments[2])!
  let store = try Store(persistence: backend.persistence(arguments[3]))
  for _ in 0..<(Int(arguments[4]) ?? 0) { store.update(0, for: counter) { $0 += 1 } }
  try store.flush()
  exit(0)
}

let quick = arguments.contains("--quick")
let runID = "\(getpid())"

func percentile(_ sorted: [Int64], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]) / 1e6
}

/// A change seen by a second process: this one stamps and flushes, the other hears it.
func changeSeen(_ backend: Backend, samples: Int) throws -> (p50: Double, p95: Double) {
  let name = "seen-\(runID)"
  let writer = try Store(persistence: backend.persistence(name))
  let child = Process()
  child.executableURL = URL(fileURLWithPath: arguments[0])
  child.arguments = ["--listen", backend.rawValue, name]
  let output = Pipe()
  let input = Pipe()
  child.standardOutput = output
  child.standardInput = input
  try child.run()
  var buffer = ""
  func lines() -> [String] {
    buffer += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    return buffer.split(separator: "\n").map(String.init)
  }
  while !lines().contains("ready") {}
  usleep(300_000)  // the listener's connection, or the folder watch, settles
  for _ in 0..<samples {
    writer.stage(monotonicNanoseconds(), for: stamp)
    try writer.flush()
    usleep(50_000)  // one change at a time: latency, not coalescing
  }
  usleep(500_000)
  try input.fileHandleForWriting.close()
  child.waitUntilExit()
  buffer += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  let latencies = buffer.split(separator: "\n").compactMap { Int64($0) }.sorted()
  return (percentile(latencies, 0.5), percentile(latencies, 0.95))
}

/// One change + flush(), in milliseconds, median.
func changeAndFlush(_ backend: Backend, count: Int) throws -> Double {
  let store = try Store(persistence: backend.persistence("flush-\(runID)"))
  var times: [Int64] = []
  for index in 0..<count {
    let start = monotonicNanoseconds()
    store.stage(index, for: counter)
    try store.flush()
    times.append(monotonicNanoseconds() - start)
  }
  return percentile(times.sorted(), 0.5)
}

/// Opening a store of 10,000 keys and reading them all, in milliseconds.
func coldOpen(_ backend: Backend) throws -> Double {
  let name = "cold-\(runID)"
  let filler = try Store(persistence: backend.persistence(name))
  try filler.batch { batch in
    for index in 0..<10_000 { batch.stage(index, for: StoreKey<Int>("key\(index)")) }
  }
  try filler.flush()
  try filler.close()
  let start = monotonicNanoseconds()
  let store = try Store(persistence: backend.persistence(name))
  var sum = 0
  for index in 0..<10_000 { sum += store.value(for: StoreKey<Int>("key\(index)")) ?? 0 }
  precondition(sum == 49_995_000)
  return Double(monotonicNanoseconds() - start) / 1e6
}

/// update() throughput, three processes on one key: updates per second.
func threeProcessUpdates(_ backend: Backend, each: Int) throws -> Double {
  let name = "update-\(runID)"
  let start = monotonicNanoseconds()
  let children = try (0..<3).map { _ in
    let child = Process()
    child.executableURL = URL(fileURLWithPath: arguments[0])
    child.arguments = ["--increment", backend.rawValue, name, "\(each)"]
    try child.run()
    return child
  }
  for child in children { child.waitUntilExit() }
  let seconds = Double(monotonicNanoseconds() - start) / 1e9
  let total = try Store(persistence: backend.persistence(name)).value(for: counter) ?? 0
  precondition(total == 3 * each, "lost updates: \(total)")
  return Double(total) / seconds
}

let samples = quick ? 20 : 200
let updates = quick ? 100 : 1_000
print("| row | file store | PostgreSQL |")
print("| --- | --- | --- |")
var json: [String: Double] = [:]
let seen = try [Backend.file, .postgres].map { try changeSeen($0, samples: samples) }
print(
  String(
    format: "| change seen by a second process, p50 / p95 | %.2f / %.2f ms | %.2f / %.2f ms |",
    seen[0].p50, seen[0].p95, seen[1].p50, seen[1].p95))
let flush = try [Backend.file, .postgres].map { try changeAndFlush($0, count: samples) }
print(String(format: "| one change + flush(), median | %.2f ms | %.2f ms |", flush[0], flush[1]))
let cold = try [Backend.file, .postgres].map { try coldOpen($0) }
print(String(format: "| cold open + read of 10,000 keys | %.1f ms | %.1f ms |", cold[0], cold[1]))
let throughput = try [Backend.file, .postgres].map { try threeProcessUpdates($0, each: updates) }
print(
  String(
    format: "| update(), three processes on one key | %.0f /s | %.0f /s |", throughput[0],
    throughput[1]))
for (index, backend) in ["file", "postgres"].enumerated() {
  json["store_\(backend)_change_seen_p50_ms"] = seen[index].p50
  json["store_\(backend)_change_seen_p95_ms"] = seen[index].p95
  json["store_\(backend)_change_flush_ms"] = flush[index]
  json["store_\(backend)_cold_open_10k_ms"] = cold[index]
  json["store_\(backend)_update_3proc_per_s"] = throughput[index]
}
let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
print(String(decoding: data, as: UTF8.self))
