// See include/RippleFutex.h.
#include "RippleFutex.h"

#include <sched.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void ripple_futex_wait(uint32_t *word, uint32_t expected) {
  syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void ripple_futex_wake_one(uint32_t *word) {
  syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#else
// Not used off Linux (ReactiveCore's lock is the platform's Mutex there); defined so the
// target builds everywhere.
void ripple_futex_wait(uint32_t *word, uint32_t expected) { (void)word; (void)expected; }
void ripple_futex_wake_one(uint32_t *word) { (void)word; }
#endif

void ripple_thread_yield(void) { sched_yield(); }
