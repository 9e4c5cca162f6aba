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
//   KeyedStoreCrashChild exit PATH VALUE       stages VALUE (and a batch), then calls
//                                              exit(0) without flushing
//   KeyedStoreCrashChild return PATH VALUE     the same, then returns from main with the
//                                              store still open
//   KeyedStoreCrashChild increment PATH N      adds 1 to "counter" N times with
//                                              update(_:for:_:), then prints "done"
//   KeyedStoreCrashChild readonly PATH         prints the value of "text", whether the
//                                              store is read-only, then stages and
//                                              flushes and prints what flush threw
//   KeyedStoreCrashChild exit-full PATH VALUE  stages VALUE on a disk that is full, sets
//                                              an exit handler that prints "handler
//                                              <error>", then calls exit(0)
//
// Any mode may be preceded by "as-user UID": the child then runs as that user and group
// (the tests run as root), so that tests can be another user in a shared folder.
//
// A mode with the suffix "-journal" (crash-journal, writer-journal, increment-journal)
// opens the store so that it keeps a journal from the first write and compacts it once
// it reaches half the file: every write appends, and compactions come often.

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

var arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "as-user" {
  guard let user = UInt32(arguments[2]) else { fail("as-user UID MODE …") }
  // Group first: once the user changed, the process may no longer change its group.
  guard setgroups(0, nil) == 0, setgid(user) == 0, setuid(user) == 0 else {
    fail("cannot become user \(user): \(String(cString: strerror(errno)))")
  }
  arguments.removeSubrange(1...2)
}
guard arguments.count >= 3 else { fail("usage: crash PATH | writer PATH PREFIX COUNT") }
let path = arguments[2]

/// The keys the `exit` and `return` modes stage without flushing.
enum ExitKeys {
  static let value = StoreKey<String>("exit.value")
  static let first = StoreKey<Int>("exit.batch.first")
  static let second = StoreKey<Int>("exit.batch.second")
}

/// Stores that stay open until the process ends: a global is never released, so only
/// the exit handler can write what they hold.
nonisolated(unsafe) var keptOpen: [Store] = []

/// The mode without its "-journal" suffix, and whether it had one.
let (mode, journaling) =
  arguments[1].hasSuffix("-journal")
  ? (String(arguments[1].dropLast("-journal".count)), true) : (arguments[1], false)

if mode == "exit-full" {
  guard arguments.count == 4 else { fail("exit-full PATH VALUE") }
  do {
    let full = Persistence.file(path: path, changeCheckInterval: nil).failingWrites { ENOSPC }
    let store = try Store(persistence: full)
    Store.exitFlushFailureHandler = { error in emit("handler \(error)") }
    store.stage(arguments[3], for: ExitKeys.value)
    keptOpen.append(store)
  } catch {
    fail("\(error)")
  }
  exit(0)
}

do {
  var persistence = Persistence.file(path: path, changeCheckInterval: nil)
  if journaling { persistence = persistence.journaling(fromFileSize: 0, compactionRatio: 0.5) }
  let store = try Store(persistence: persistence)
  switch mode {
  case "exit", "return":
    guard arguments.count == 4 else { fail("\(mode) PATH VALUE") }
    store.stage(arguments[3], for: ExitKeys.value)
    try store.batch { batch in
      batch.stage(1, for: ExitKeys.first)
      batch.stage(2, for: ExitKeys.second)
    }
    keptOpen.append(store)
    if mode == "exit" { exit(0) }
  case "readonly":
    let text = StoreKey<String>("text")
    emit("value \(store.value(for: text) ?? "nil")")
    emit("readOnly \(store.isReadOnly)")
    store.stage("changed", for: text)
    do {
      try store.flush()
      emit("flush ok")
    } catch {
      emit("flush \(error)")
    }
    emit("value \(store.value(for: text) ?? "nil")")
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
  case "increment":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("increment PATH N") }
    let counter = StoreKey<Int>("counter")
    for _ in 0..<count {
      store.update(0, for: counter) { $0 += 1 }
    }
    emit("done")
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
