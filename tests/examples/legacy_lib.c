/*
 * legacy_lib.c -- OpenMP code as GCC before 4.9 compiled it (libgomp's
 * first ABI), written out by hand since gcc 12 emits the newer entries:
 * the region's function called by the encountering thread itself between
 * GOMP_parallel_start (or a combined loop or sections start) and
 * GOMP_parallel_end.  Built with plain gcc into a library, called by
 * legacy_main.c (built with pomp-cc): code pomp-cc did not compile, whose
 * regions libpompt reports from those entries (bridge_gomp_legacy.c).
 */
#include <omp.h>

#include "legacy_lib.h"

void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned nthreads);
void GOMP_parallel_end(void);
void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data,
                                      unsigned nthreads, long start, long end,
                                      long incr, long chunk);
void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data,
                                      unsigned nthreads, long start, long end,
                                      long incr);
void GOMP_parallel_sections_start(void (*fn)(void *), void *data,
                                  unsigned nthreads, unsigned count);
_Bool GOMP_loop_dynamic_next(long *start, long *end);
_Bool GOMP_loop_runtime_next(long *start, long *end);
void GOMP_loop_end_nowait(void);
unsigned GOMP_sections_next(void);
void GOMP_sections_end_nowait(void);
void GOMP_barrier(void);
_Bool GOMP_single_start(void);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
               long arg_size, long arg_align, _Bool if_clause, unsigned flags,
               void **depend, int priority, void *detach);
void GOMP_taskwait(void);

/* #pragma omp parallel { s += thread number + 1; #pragma omp barrier } */
static void barrier_fn(void *data) {
  long *s = data;
  __atomic_add_fetch(s, omp_get_thread_num() + 1, __ATOMIC_RELAXED);
  GOMP_barrier();
}

long legacy_barrier(void) {
  long s = 0;
  GOMP_parallel_start(barrier_fn, &s, 0);
  barrier_fn(&s);
  GOMP_parallel_end();
  return s;
}

/* #pragma omp parallel for schedule(dynamic, 3): the start entry sets the
 * loop up, the function takes its chunks. */
static void dynamic_fn(void *data) {
  long *s = data, from, to, mine = 0;
  if (GOMP_loop_dynamic_next(&from, &to))
    do
      for (long i = from; i < to; i++)
        mine += i;
    while (GOMP_loop_dynamic_next(&from, &to));
  GOMP_loop_end_nowait();
  __atomic_add_fetch(s, mine, __ATOMIC_RELAXED);
}

long legacy_dynamic(int n) {
  long s = 0;
  GOMP_parallel_loop_dynamic_start(dynamic_fn, &s, 0, 0, n, 1, 3);
  dynamic_fn(&s);
  GOMP_parallel_end();
  return s;
}

/* #pragma omp parallel for schedule(runtime) */
static void runtime_fn(void *data) {
  long *s = data, from, to, mine = 0;
  if (GOMP_loop_runtime_next(&from, &to))
    do
      for (long i = from; i < to; i++)
        mine += 2 * i;
    while (GOMP_loop_runtime_next(&from, &to));
  GOMP_loop_end_nowait();
  __atomic_add_fetch(s, mine, __ATOMIC_RELAXED);
}

long legacy_runtime(int n) {
  long s = 0;
  GOMP_parallel_loop_runtime_start(runtime_fn, &s, 0, 0, n, 1);
  runtime_fn(&s);
  GOMP_parallel_end();
  return s;
}

/* #pragma omp parallel sections, three sections */
static void sections_fn(void *data) {
  long *s = data;
  for (unsigned k = GOMP_sections_next(); k; k = GOMP_sections_next())
    __atomic_add_fetch(s, 10 * k, __ATOMIC_RELAXED);
  GOMP_sections_end_nowait();
}

long legacy_sections(void) {
  long s = 0;
  GOMP_parallel_sections_start(sections_fn, &s, 0, 3);
  sections_fn(&s);
  GOMP_parallel_end();
  return s;
}

/* #pragma omp parallel { #pragma omp single { n tasks; taskwait } }:
 * the tasks are reported inside the region. */
/* The task's block holds a pointer to the count (firstprivate). */
static void task_fn(void *data) {
  __atomic_add_fetch(*(long **)data, 1, __ATOMIC_RELAXED);
}

struct tasks {
  long count;
  int n;
};

static void tasks_fn(void *data) {
  struct tasks *t = data;
  if (GOMP_single_start()) {
    for (int i = 0; i < t->n; i++) {
      long *p = &t->count;
      GOMP_task(task_fn, &p, 0, sizeof p, _Alignof(long *), 1, 0, 0, 0, 0);
    }
    GOMP_taskwait();
  }
  GOMP_barrier();
}

long legacy_tasks(int n) {
  struct tasks t = {0, n};
  GOMP_parallel_start(tasks_fn, &t, 0);
  tasks_fn(&t);
  GOMP_parallel_end();
  return t.count;
}

/* A region inside a region of this ABI (nested, active when the program
 * allows it): each level ends at its own GOMP_parallel_end. */
static void inner_fn(void *data) {
  __atomic_add_fetch((long *)data, 1, __ATOMIC_RELAXED);
}

static void outer_fn(void *data) {
  GOMP_parallel_start(inner_fn, data, 2);
  inner_fn(data);
  GOMP_parallel_end();
}

long legacy_nested(int threads) {
  long s = 0;
  GOMP_parallel_start(outer_fn, &s, (unsigned)threads);
  outer_fn(&s);
  GOMP_parallel_end();
  return s;
}
