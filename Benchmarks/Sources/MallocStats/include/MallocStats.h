#ifndef RIPPLE_MALLOC_STATS_H
#define RIPPLE_MALLOC_STATS_H

#include <stddef.h>

/// Bytes currently allocated by malloc (glibc's mallinfo2 uordblks), or 0 elsewhere.
size_t ripple_malloc_in_use_bytes(void);

#endif
