import Dispatch
import Testing

@testable import ReactiveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The mutex word under every lock: exclusion, waking every sleeper, and (on Linux) that
/// the kernel is told the word's own address.
@Suite struct RawMutexTests {
  /// An owner as Ripple's types hold the mutex: inline, in a `let` of a class.
  final class Owner: @unchecked Sendable {
    let mutex = RawMutex()
    var count = 0
  }

  #if os(Linux) || os(Android)
    /// A copy's address would put sleepers on a word nobody wakes.
    @Test func theKernelIsGivenTheWordInsideItsOwner() {
      let owner = Owner()
      let other = Owner()
      let start = UInt(bitPattern: Unmanaged.passUnretained(owner).toOpaque())
      let address = UInt(bitPattern: owner.mutex.address)
      let again = UInt(bitPattern: owner.mutex.address)
      let otherAddress = UInt(bitPattern: other.mutex.address)
      #expect(address == again)
      #expect(address >= start && address < start + 64)
      #expect(address != otherAddress)
    }
  #endif

  @Test func tryLockFailsWhileHeldAndSucceedsAfter() {
    let owner = Owner()
    owner.mutex.lock()
    let triedElsewhere = DispatchQueue.global().sync { owner.mutex.tryLock() }
    #expect(!triedElsewhere)
    owner.mutex.unlock()
    let triedAfter = owner.mutex.tryLock()
    #expect(triedAfter)
    owner.mutex.unlock()
  }

  /// Eight threads on however many cores: a plain counter under the mutex loses nothing.
  @Test func eightThreadsExcludeEachOther() {
    let owner = Owner()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 {
        owner.mutex.lock()
        owner.count += 1
        owner.mutex.unlock()
      }
    }
    #expect(owner.count == 160_000)
  }

  /// A holder that sleeps makes every waiter give up spinning and sleep in the kernel;
  /// each must be woken and get its turn (a lost wake-up would hang here).
  @Test func everySleeperIsWoken() {
    let owner = Owner()
    for _ in 0..<20 {
      owner.mutex.lock()
      let group = DispatchGroup()
      for _ in 0..<7 {
        DispatchQueue.global().async(group: group) {
          owner.mutex.lock()
          owner.count += 1
          usleep(100)
          owner.mutex.unlock()
        }
      }
      usleep(2_000)
      owner.mutex.unlock()
      group.wait()
    }
    #expect(owner.count == 140)
  }
}
