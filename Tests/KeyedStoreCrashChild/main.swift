import KeyedStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A child process for KeyedStore's tests, which kill it or run it beside themselves:
//
//   KeyedStoreCrashChild crash PATH            stages batches of related keys forever,
//                                              printing "flushed N" after each flush
//   KeyedStoreCrashChild writer PATH PREFIX N  stages PREFIX.0 ..< PREFIX.N, then exits

/// The keys a crash batch stages together: a committed batch has `mirror == counter`,
/// `double == 2 * counter` and `label == "batch <counter>"`.
enum CrashKeys {
  static let counter = StoreKey<Int>("crash.counter")
  static let mirror = StoreKey<Int>("crash.mirror")
  static let double = StoreKey<Int>("crash.double")
  static let label = StoreKey<String>("crash.label")
}

/// Writes a line straight to a file descriptor: unbuffered, so that the parent reads it
/// even when the process is killed right after.
func emit(_ line: String, to descriptor: Int32 = 1) {
  let bytes = Array((line + "\n").utf8)
  _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
  emit("KeyedStoreCrashChild: \(message)", to: 2)
  exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: crash PATH | writer PATH PREFIX COUNT") }
let path = arguments[2]

do {
  let store = try Store(persistence: .file(path: path, changeCheckInterval: nil))
  switch arguments[1] {
  case "crash":
    var counter = store.value(for: CrashKeys.counter) ?? 0
    while true {
      counter += 1
      try store.batch { batch in
        batch.stage(counter, for: CrashKeys.counter)
        batch.stage(counter, for: CrashKeys.mirror)
        batch.stage(counter * 2, for: CrashKeys.double)
        batch.stage("batch \(counter)", for: CrashKeys.label)
      }
      if counter % 8 == 0 {
        try store.flush()
        // Printed only once flush returned: the parent may rely on it.
        emit("flushed \(counter)")
      }
    }
  case "writer":
    guard arguments.count == 5, let count = Int(arguments[4]) else {
      fail("writer PATH PREFIX COUNT")
    }
    for index in 0..<count {
      store.stage(index, for: StoreKey<Int>("\(arguments[3]).\(index)"))
      if index % 10 == 0 { try store.flush() }
    }
    try store.flush()
    emit("done")
  default:
    fail("unknown mode \(arguments[1])")
  }
} catch {
  fail("\(error)")
}
