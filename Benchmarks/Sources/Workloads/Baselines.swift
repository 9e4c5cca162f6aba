import Synchronization

/// Hand-written Swift doing the same work without any framework: the limit.
///
/// The closures live in global variables so the optimiser cannot see through them and
/// delete the loop, just as a framework's stored closures are opaque to it.
public enum Baselines {
  nonisolated(unsafe) public static var sink: (Int) -> Void = { blackHole &+= $0 }
  nonisolated(unsafe) public static var filter: (Int) -> Void = { if $0 & 1 == 0 { sink($0) } }
  nonisolated(unsafe) public static var map: (Int) -> Void = { filter($0 &+ 1) }

  @inline(never)
  public static func closureChain(_ n: Int) {
    let map = map
    for i in 0..<n { map(i) }
  }

  @inline(never)
  public static func closureCall(_ n: Int) {
    let sink = sink
    for i in 0..<n { sink(i) }
  }

  @inline(never)
  public static func dedupeScan(_ n: Int) {
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

  public static let guarded = Mutex<[String: Int]>([:])

  @inline(never)
  public static func mutexDictionaryWriteAndCall(_ n: Int) {
    let observer = sink
    for i in 0..<n {
      guarded.withLock { $0["benchmark"] = i }
      observer(i)
    }
  }
}
