/// The stack size of a Dispatch worker thread: deep structures must not need more.
public let smallStackSize = 512 * 1024

/// Runs `body` on a new thread whose stack is `stackSize` bytes, and waits for it.
///
/// A recursion that follows the data crashes the test process here instead of passing on
/// the main thread's 8 MiB. Shared by every module's tests.
public func onThread(stackSize: Int = smallStackSize, _ body: @escaping () -> Void) {
  JoinableThread(stackSize: stackSize, body).join()
}
