#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread sanitizer's annotation entry points, when the process runs under it.
///
/// On Darwin, Ripple's locks are `Synchronization.Mutex`, whose contended path lives in
/// the uninstrumented standard library, so the sanitizer cannot see a thread acquire a lock
/// another thread released and reports races that are not there. Telling it, at each
/// acquire and release, restores the happens-before edge. (On Linux the lock word is
/// ``RawMutex``'s own atomics, which the sanitizer sees; the annotations still name the
/// lock, so a report says which one.) Looked up once, by name, so
/// that builds without the sanitizer pay one predictable branch per lock operation.
@usableFromInline
struct ThreadSanitizerHooks: @unchecked Sendable {
  typealias Hook = @convention(c) (UnsafeRawPointer?) -> Void

  let acquire: Hook
  let release: Hook

  /// The hooks of the running process, or `nil` when the sanitizer is not loaded.
  static let current: ThreadSanitizerHooks? = {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    guard let acquire = dlsym(everywhere, "__tsan_acquire"),
      let release = dlsym(everywhere, "__tsan_release")
    else { return nil }
    return ThreadSanitizerHooks(
      acquire: unsafeBitCast(acquire, to: Hook.self),
      release: unsafeBitCast(release, to: Hook.self))
  }()

  /// Whether the process runs under the thread sanitizer.
  @usableFromInline
  static let isActive = current != nil

  /// Records that the calling thread acquired the lock at `address`.
  @usableFromInline
  static func didAcquire(_ address: UnsafeRawPointer) { current?.acquire(address) }

  /// Records that the calling thread is about to release the lock at `address`.
  @usableFromInline
  static func willRelease(_ address: UnsafeRawPointer) { current?.release(address) }
}
