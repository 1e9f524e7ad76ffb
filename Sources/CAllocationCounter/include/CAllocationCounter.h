#ifndef TILTKIT_CALLOCATIONCOUNTER_H
#define TILTKIT_CALLOCATIONCOUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by
/// the calling thread since it started. Read it before and after a code path: equal means the
/// path did not touch the heap.
uint64_t tk_allocation_count(void);

/// `free` calls (of non-null pointers) made by the calling thread since it started.
uint64_t tk_free_count(void);

/// 1 when the counter was built in (TILTKIT_ALLOCATION_COUNTER=1 at build time), else 0 and
/// both counts stay 0.
int tk_allocation_counter_enabled(void);

#endif
