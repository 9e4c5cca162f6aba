#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread of its own running one closure, joined with ``join()``: what ``onThread(stackSize:_:)``
/// and ``onThreadsAtOnce(_:_:)`` start. pthreads rather than `Thread`, so that the thread
/// sanitizer sees the start and the join: whatever the thread did happens before `join`
/// returns.
struct JoinableThread {
  private let thread: pthread_t

  /// Starts `body` on a new thread, with a stack of `stackSize` bytes if given.
  init(stackSize: Int? = nil, _ body: @escaping () -> Void) {
    final class Context {
      let body: () -> Void
      init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize {
      precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
    }
    let context = Unmanaged.passRetained(Context(body)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, &attributes,
      { raw in
        #if canImport(Darwin)
          let context = Unmanaged<AnyObject>.fromOpaque(raw).takeRetainedValue()
        #else
          let context = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue()
        #endif
        (context as! Context).body()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed: \(created)")
    #if canImport(Darwin)
      self.thread = thread!
    #else
      self.thread = thread
    #endif
  }

  /// Waits for the thread to return.
  func join() { pthread_join(thread, nil) }
}
