// Counts heap allocations for the throughput benchmarks ("allocations per fix").
//
// On Linux with glibc, the executable defines malloc & co., which the dynamic linker then binds for every
// shared library too (the Swift runtime, Foundation): each call is counted and forwarded to glibc's own
// allocator (__libc_malloc …). Linked only into truetrack-benchmarks, never into a library.
#include "AllocationCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static uint64_t allocations;

static inline void counted(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { counted(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { counted(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { counted(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    counted();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t truetrack_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
#else
uint64_t truetrack_allocation_count(void) { return 0; }
#endif
