#include <stdlib.h>  // defines __GLIBC__ on glibc

#include "MallocStats.h"

#if defined(__GLIBC__)
#include <malloc.h>
size_t ripple_malloc_in_use_bytes(void) {
  // Large blocks (a subject's conduit list, for one) may be mmapped, which `uordblks`
  // leaves out; count them too, whichever way malloc chose.
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
#else
size_t ripple_malloc_in_use_bytes(void) { return 0; }
#endif
