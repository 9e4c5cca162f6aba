// The two kernel calls behind ReactiveCore's lock on Linux, which Swift cannot make
// itself: `syscall` is variadic, and Swift does not import variadic C functions.
//
// Everything else about the lock (its word, the fast path, when to yield) is Swift, in
// ReactiveCore's RawMutex.swift; these run only once a thread has decided to yield, sleep
// or wake a sleeper, where a call costs nothing beside the system call it makes.
#ifndef RIPPLE_FUTEX_H
#define RIPPLE_FUTEX_H

#include <stdint.h>

/// Sleeps while `*word` equals `expected` (FUTEX_WAIT_PRIVATE, no timeout). Returns
/// at once if it differs; may also return spuriously: the caller re-checks the word.
void ripple_futex_wait(uint32_t *word, uint32_t expected);

/// Wakes at most one thread sleeping in `ripple_futex_wait` on `word`.
void ripple_futex_wake_one(uint32_t *word);

/// Gives the processor to another runnable thread (sched_yield).
void ripple_thread_yield(void);

#endif
