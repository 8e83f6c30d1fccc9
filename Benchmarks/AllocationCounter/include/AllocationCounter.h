#ifndef TRUETRACK_ALLOCATION_COUNTER_H
#define TRUETRACK_ALLOCATION_COUNTER_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by this process
/// since it started. Counted by interposing the glibc allocator in the benchmark executable (Linux only;
/// elsewhere always 0).
uint64_t truetrack_allocation_count(void);

#endif
