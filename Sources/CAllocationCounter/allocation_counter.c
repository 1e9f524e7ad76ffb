// Counts heap calls per thread by interposing the C allocator: a definition of `malloc` in the
// executable wins symbol resolution over libc's, so every allocation in the process (the Swift
// runtime's included) comes here first and is forwarded to glibc's own entry points
// (`__libc_malloc` and friends, exported by glibc for exactly this purpose). Linux/glibc only.
//
// Opt-in (TILTKIT_ALLOCATION_COUNTER=1 when building; scripts/test.sh and demo.sh set it): the
// address and thread sanitizers interpose malloc themselves, and a second interposer in the same
// executable makes the sanitized test binary crash at start. Without it the counts stay 0 and
// `tk_allocation_counter_enabled()` says so, so no caller mistakes "not counted" for "none".
#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// initial-exec: the counter lives in the static TLS block, so touching it never calls
// __tls_get_addr (which may itself allocate, and would recurse into malloc).
static __thread uint64_t allocations __attribute__((tls_model("initial-exec")));
static __thread uint64_t frees __attribute__((tls_model("initial-exec")));

uint64_t tk_allocation_count(void) { return allocations; }
uint64_t tk_free_count(void) { return frees; }

#ifdef TILTKIT_ALLOCATION_COUNTER
int tk_allocation_counter_enabled(void) { return 1; }

void *malloc(size_t size) {
    allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    allocations++;
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    if (pointer != NULL) frees++;
    __libc_free(pointer);
}

#else
int tk_allocation_counter_enabled(void) { return 0; }
#endif
