import Synchronization

/// Hand-written Swift doing the same work without any framework: the limit.
///
/// The closures live in global variables so the optimiser cannot see through them and
/// delete the loop, just as a framework's stored closures are opaque to it.
enum Baselines {
  nonisolated(unsafe) static var sink: (Int) -> Void = { blackHole &+= $0 }
  nonisolated(unsafe) static var filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
  nonisolated(unsafe) static var map: (Int) -> Void = { filter($0 &+ 1) }

  @inline(never)
  static func closureChain(_ n: Int) {
    let map = map
    for i in 0..<n { map(i) }
  }

  @inline(never)
  static func closureCall(_ n: Int) {
    let sink = sink
    for i in 0..<n { sink(i) }
  }

  @inline(never)
  static func dedupeScan(_ n: Int) {
    var last: Int?
    var total = 0
    let sink = sink
    for i in 0..<n {
      let value = i >> 1
      if value == last { continue }
      last = value
      total &+= value
      sink(total)
    }
  }

  static let guarded = Mutex<[String: Int]>([:])

  @inline(never)
  static func mutexDictionaryWriteAndCall(_ n: Int) {
    let observer = sink
    for i in 0..<n {
      guarded.withLock { $0["benchmark"] = i }
      observer(i)
    }
  }
}
