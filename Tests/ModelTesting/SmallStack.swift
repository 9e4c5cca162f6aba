#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stack size of a Dispatch worker thread: deep structures must not need more.
public let smallStackSize = 512 * 1024

/// Runs `body` on a new thread whose stack is `stackSize` bytes, and waits for it.
///
/// A recursion that follows the data crashes the test process here instead of passing on
/// the main thread's 8 MiB. Shared by every module's tests.
public func onThread(stackSize: Int = smallStackSize, _ body: @escaping () -> Void) {
  final class Context {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
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
    pthread_join(thread!, nil)
  #else
    pthread_join(thread, nil)
  #endif
}
