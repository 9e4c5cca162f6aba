#if PostgreSQL
  import ReactiveCore

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// Writer names, unique to each backend and prefixed with this process's tag: what tells
  /// another store of this process (`MutationOrigin/anotherStore`) from
  /// another process.
  enum WriterRegistry {
    private static let counter = LockedBox(0)
    /// Unique per process start: the process id and a random number.
    private static let processTag = "\(getpid())-\(UInt64.random(in: 0...UInt64.max))"

    /// A new writer name, registered as this process's.
    static func newID() -> String {
      let number = counter.withLock { value in
        value += 1
        return value
      }
      return "\(processTag)-\(number)"
    }

    /// Whether a backend of this process wrote as `id`.
    static func isThisProcess(_ id: String) -> Bool { id.hasPrefix(processTag + "-") }
  }
#endif
