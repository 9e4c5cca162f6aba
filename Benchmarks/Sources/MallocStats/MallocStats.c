#include <stdlib.h>  // defines __GLIBC__ on glibc

#include "MallocStats.h"

#if defined(__GLIBC__)
#include <malloc.h>
size_t ripple_malloc_in_use_bytes(void) { return mallinfo2().uordblks; }
#else
size_t ripple_malloc_in_use_bytes(void) { return 0; }
#endif
