/*
 * bridge_arena.c -- libpompt's own memory, apart from the program's heap.
 *
 * What libpompt keeps for the life of the process (a region per construct,
 * its strings, a record per thread, task record slabs) comes from pages
 * mapped here, never from malloc.  The program's heap is then laid out as
 * it would be without libpompt: the OpenMP runtime allocates its teams and
 * barriers from that heap, and where they fall relative to cache lines
 * decides whether its threads share lines by accident.  Registering a
 * program's regions through malloc at start-up moved them, and with them
 * the cost of an empty parallel region by up to 100 ns, depending on no
 * more than the length of the source file's name (doc/performance.md,
 * "libpompt's memory and the program's heap").
 *
 * A bump allocator: lock-free (a thread's first event and a pool refill
 * may allocate concurrently, and a fork may come at any time), zeroed
 * memory (fresh anonymous pages), nothing is ever returned.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bridge.h"

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ON_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ON_HEAP 1
#endif
#endif

/* Each chunk is this many bytes of address space; pages are touched only
 * when used.  Larger requests get a mapping of their own. */
#define ARENA_CHUNK (256u * 1024u)
#define ARENA_LARGE (ARENA_CHUNK / 4)

typedef struct arena_chunk {
  _Atomic size_t used; /* bytes from the chunk's start, header included */
} arena_chunk_t;

static _Atomic(arena_chunk_t *) current;

static void *map_zeroed(size_t size) {
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* Room for size bytes aligned to align in chunk c, or NULL when it is
 * full. */
static void *carve(arena_chunk_t *c, size_t size, size_t align) {
  size_t used = atomic_load_explicit(&c->used, memory_order_relaxed);
  for (;;) {
    size_t start = (used + align - 1) & ~(align - 1);
    if (start + size > ARENA_CHUNK)
      return NULL;
    if (atomic_compare_exchange_weak_explicit(&c->used, &used, start + size,
                                              memory_order_relaxed,
                                              memory_order_relaxed))
      return (char *)c + start;
  }
}

void *bridge_arena_alloc(size_t size, size_t align) {
#ifdef ARENA_ON_HEAP
  /* AddressSanitizer checks heap blocks, not these pages: under it the
   * program's heap is perturbed anyway, so libpompt's objects stay
   * checked there. */
  (void)align;
  return calloc(1, size ? size : 1);
#else
  if (align < sizeof(void *))
    align = sizeof(void *);
  if (size == 0)
    size = 1;
  if (size > ARENA_LARGE)
    return map_zeroed(size); /* page-aligned: any align a caller asks */
  for (;;) {
    arena_chunk_t *c = atomic_load_explicit(&current, memory_order_acquire);
    if (c) {
      void *p = carve(c, size, align);
      if (p)
        return p;
    }
    arena_chunk_t *fresh = map_zeroed(ARENA_CHUNK);
    if (!fresh)
      return NULL;
    atomic_init(&fresh->used, sizeof *fresh);
    /* Another thread may have installed a chunk meanwhile: then this one
     * goes back and the allocation retries in that one. */
    if (!atomic_compare_exchange_strong_explicit(
            &current, &c, fresh, memory_order_acq_rel, memory_order_acquire))
      munmap(fresh, ARENA_CHUNK);
  }
#endif
}

void bridge_arena_release(void *p) {
#ifdef ARENA_ON_HEAP
  free(p);
#else
  (void)p; /* the pages stay: what is released here is rare */
#endif
}
