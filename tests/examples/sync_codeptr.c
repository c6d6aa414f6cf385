/*
 * sync_codeptr.c -- the codeptr_ra of barriers and taskwait, seen by a
 * tool linked into the program, as a native runtime gives them: a barrier
 * directive, a worksharing construct's implicit barrier and a taskwait
 * carry the return address of the one call that makes them, right after
 * the construct (at every begin and end); the barrier that ends a parallel
 * region carries the region's codeptr_ra on the primary thread and NULL on
 * the workers.  A task construct's task_create carries the return
 * address of its call of GOMP_task, right after the construct (but for the
 * stack arguments' pop), as a native runtime's task entry's.
 *
 * Built with -O0, where the code after each construct is where the source
 * puts it: a label right after it (after a one-byte nop, as LLVM's OMPT
 * tests have it) is 1 byte past the return address.  Prints "mismatch"
 * lines and exits 1 when a codeptr_ra differs; prints the counts (of the
 * region's end barrier, its begins: a worker's end comes later).
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "own_tool.h"

#define MAX_EVENTS 256

struct event {
  int kind, endpoint, thread;
  const void *codeptr;
};
static struct event events[MAX_EVENTS];
static int nevents;
static const void *parallel_codeptr;

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task,
                    const void *codeptr) {
  (void)parallel, (void)task;
  int n = __atomic_fetch_add(&nevents, 1, __ATOMIC_RELAXED);
  if (n < MAX_EVENTS)
    events[n] =
        (struct event){(int)kind, (int)endpoint, omp_get_thread_num(), codeptr};
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  (void)task, (void)frame, (void)parallel, (void)requested, (void)flags;
  parallel_codeptr = codeptr;
}

/* Recorded as an event of kind TASK_CREATE (no sync region has it). */
#define TASK_CREATE 100
static void on_task_create(ompt_data_t *enc, const ompt_frame_t *frame,
                           ompt_data_t *task, int flags, int has_dependences,
                           const void *codeptr) {
  (void)enc, (void)frame, (void)task, (void)flags, (void)has_dependences;
  int n = __atomic_fetch_add(&nevents, 1, __ATOMIC_RELAXED);
  if (n < MAX_EVENTS)
    events[n] = (struct event){TASK_CREATE, 0, omp_get_thread_num(), codeptr};
}

static void register_callbacks(void) {
  set_callback(ompt_callback_task_create, (ompt_callback_t)on_task_create);
  set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  set_callback(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync);
  set_callback(ompt_callback_parallel_begin,
               (ompt_callback_t)on_parallel_begin);
}

/* The address a label after the construct has, less the nop before it. */
#define AFTER(slot)                                                            \
  __asm__ __volatile__("nop");                                                 \
  slot:                                                                        \
  if (omp_get_thread_num() == 0)                                               \
    after[k_##slot] = (const char *)&&slot - 1

enum { k_l_barrier, k_l_for, k_l_single, k_l_taskwait, k_l_task, K };

/* The event's codeptr_ra is the return address right after the construct
 * at after: exactly, but for a task_create, whose call of GOMP_task passes
 * arguments on the stack that GCC pops after it (an instruction of at most
 * 7 bytes). */
static int near(const struct event *ev, const void *after) {
  const char *c = ev->codeptr, *a = after;
  if (ev->kind != TASK_CREATE)
    return c == a;
  return c && a && c <= a && a - c <= 7;
}

int main(void) {
  static const void *after[K];
  static const int kind_of[K] = {
      ompt_sync_region_barrier_explicit,
      ompt_sync_region_barrier_implicit_workshare,
      ompt_sync_region_barrier_implicit_workshare, ompt_sync_region_taskwait,
      TASK_CREATE};
  int sum = 0, x = 0, y = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  {
#pragma omp barrier
    AFTER(l_barrier);
#pragma omp for
    for (int i = 0; i < 4; i++)
      sum += i;
    AFTER(l_for);
#pragma omp single
    x++;
    AFTER(l_single);
#pragma omp taskwait
    AFTER(l_taskwait);
#pragma omp task shared(y)
    __atomic_add_fetch(&y, 1, __ATOMIC_RELAXED);
    AFTER(l_task);
  }
  int bad = 0, counts[K] = {0}, ends = 0;
  if (nevents > MAX_EVENTS) {
    printf("more than %d events\n", MAX_EVENTS);
    return 1;
  }
  for (int e = 0; e < nevents; e++) {
    const struct event *ev = &events[e];
    if (ev->kind == ompt_sync_region_barrier_implicit_parallel) {
      const void *want = ev->thread == 0 ? parallel_codeptr : NULL;
      /* a worker's end comes at its next event, maybe after the report */
      ends += ev->endpoint == ompt_scope_begin;
      if (ev->codeptr != want) {
        printf("mismatch: end barrier, thread %d: %p, want %p\n", ev->thread,
               ev->codeptr, want);
        bad = 1;
      }
      continue;
    }
    int k;
    for (k = 0; k < K; k++)
      if (kind_of[k] == ev->kind && near(ev, after[k]))
        break;
    if (k == K) {
      printf("mismatch: kind %d, thread %d: codeptr_ra %p is after no "
             "construct (barrier %p, for %p, single %p, taskwait %p, "
             "task %p)\n",
             ev->kind, ev->thread, ev->codeptr, after[0], after[1], after[2],
             after[3], after[4]);
      bad = 1;
      continue;
    }
    counts[k]++;
  }
  printf("sync-codeptr: barrier=%d for=%d single=%d taskwait=%d "
         "task_create=%d end-begins=%d sum=%d x=%d y=%d\n",
         counts[0], counts[1], counts[2], counts[3], counts[4], ends, sum, x,
         y);
  return bad;
}
