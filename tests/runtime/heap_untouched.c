/*
 * heap_untouched.c -- libpompt leaves the program's heap alone.
 *
 * The OpenMP runtime allocates its teams and barriers from the program's
 * heap, and where they fall decides whether its threads share cache lines
 * by accident; libpompt registering every construct's region through
 * malloc at start-up moved them (doc/performance.md, "libpompt's memory and
 * the program's heap").  This program, built with pomp-cc, counts the heap
 * calls made from inside libpompt (malloc and friends are the program's
 * own here, so libpompt's calls come to them) while it runs constructs of
 * every kind, and fails when there is any.
 *
 *   heap_untouched [MAX]   exit 1 when libpompt made more than MAX calls
 *                          (default 0)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static int from_pompt, from_others;
static __thread int inside; /* dladdr's own calls are not counted */

static void count(void *caller) {
  if (inside)
    return;
  inside = 1;
  Dl_info info;
  int pompt = dladdr(caller, &info) && info.dli_fname &&
              strstr(info.dli_fname, "libpompt");
  __atomic_add_fetch(pompt ? &from_pompt : &from_others, 1, __ATOMIC_RELAXED);
  inside = 0;
}

void *malloc(size_t n) {
  count(__builtin_return_address(0));
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t size) {
  count(__builtin_return_address(0));
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  count(__builtin_return_address(0));
  return __libc_realloc(p, n);
}
void *aligned_alloc(size_t align, size_t n) {
  count(__builtin_return_address(0));
  return __libc_memalign(align, n);
}
int posix_memalign(void **p, size_t align, size_t n) {
  count(__builtin_return_address(0));
  *p = __libc_memalign(align, n);
  return *p ? 0 : 12; /* ENOMEM */
}
void free(void *p) { __libc_free(p); }

static double work(int i) { return (double)i * 0.5; }

int main(int argc, char **argv) {
  int max = argc > 1 ? atoi(argv[1]) : 0;
  double sum = 0.0;
  int hits = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel reduction(+ : sum)
  {
#pragma omp for schedule(dynamic, 4)
    for (int i = 0; i < 256; i++)
      sum += work(i);
#pragma omp single
    {
      for (int i = 0; i < 32; i++) {
#pragma omp task firstprivate(i)
        {
#pragma omp atomic
          hits += i & 1;
        }
      }
#pragma omp taskwait
    }
#pragma omp critical(tally)
    hits++;
    omp_set_lock(&lock);
    hits++;
    omp_unset_lock(&lock);
#pragma omp barrier
#pragma omp master
    sum += 1.0;
#pragma omp sections
    {
#pragma omp section
      sum += 2.0;
#pragma omp section
      sum += 3.0;
    }
  }
  omp_destroy_lock(&lock);
  int threads = omp_get_max_threads();
  int want_hits = 16 + 2 * threads;
  printf("sum %.1f hits %d; heap calls: libpompt %d, the rest %d\n", sum, hits,
         from_pompt, from_others);
  if (hits != want_hits) {
    fprintf(stderr, "FAIL: hits %d, expected %d\n", hits, want_hits);
    return 1;
  }
  if (from_pompt > max) {
    fprintf(stderr, "FAIL: libpompt called the heap %d times (at most %d)\n",
            from_pompt, max);
    return 1;
  }
  return 0;
}
