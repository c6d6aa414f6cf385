/*
 * hand_team_reuse.c -- a parallel construct that runs again from the same
 * frame leaves its team storage as it was: libpompt writes a field of it
 * only where the value changes (BRIDGE_TEAM_SET), so that the workers find
 * the storage's cache line in their own caches.  The storage lives in a
 * page of its own that is made read-only after the first region: a store
 * into it in a later region faults.  The program is its own tool, which
 * registers the callbacks of a region (and writes nothing into
 * parallel_data), and checks that each region's parallel_begin and
 * parallel_end, its implicit tasks and their barriers still come.  Prints
 * PASS or the first violation.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hand.h"
#include "own_tool.h"

static int parallel_begins, parallel_ends, implicit_begins, barrier_ends;

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame,
                              ompt_data_t *parallel, unsigned requested,
                              int flags, const void *codeptr) {
  (void)task, (void)frame, (void)parallel, (void)requested, (void)flags,
      (void)codeptr;
  __atomic_fetch_add(&parallel_begins, 1, __ATOMIC_RELAXED);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task,
                            int flags, const void *codeptr) {
  (void)parallel, (void)task, (void)flags, (void)codeptr;
  __atomic_fetch_add(&parallel_ends, 1, __ATOMIC_RELAXED);
}

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task,
                    const void *codeptr) {
  (void)parallel, (void)task, (void)codeptr;
  if (kind == ompt_sync_region_barrier_implicit_parallel &&
      endpoint == ompt_scope_end)
    __atomic_fetch_add(&barrier_ends, 1, __ATOMIC_RELAXED);
}

static void on_sync_wait(ompt_sync_region_t kind,
                         ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel, ompt_data_t *task,
                         const void *codeptr) {
  (void)kind, (void)endpoint, (void)parallel, (void)task, (void)codeptr;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint,
                             ompt_data_t *parallel, ompt_data_t *task,
                             unsigned actual, unsigned index, int flags) {
  (void)parallel, (void)task, (void)actual, (void)index;
  if (endpoint == ompt_scope_begin && (flags & ompt_task_implicit))
    __atomic_fetch_add(&implicit_begins, 1, __ATOMIC_RELAXED);
}

static void register_callbacks(void) {
  set_callback(ompt_callback_parallel_begin,
               (ompt_callback_t)on_parallel_begin);
  set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  set_callback(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait);
}

static const char ctc_par[] = CTC("type=parallel*file=reuse.c*lines=1,4");
static POMPT_Desc_t d_par = {0, ctc_par, 0};

int main(void) {
  long page = sysconf(_SC_PAGESIZE);
  POMPT_Team_t *team = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (team == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  int sum = 0, threads = 0;
  for (int r = 0; r < 4; r++) {
    POMPT_Parallel_fork(&d_par, team);
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
      POMPT_Parallel_begin(team);
      sum += 1;
      if (omp_get_thread_num() == 0)
        threads = omp_get_num_threads();
      POMPT_Parallel_end(team);
    }
    POMPT_Parallel_exit(team);
    if (r == 0 && mprotect(team, (size_t)page, PROT_READ) != 0) {
      perror("mprotect");
      return 1;
    }
  }
  /* A worker's last barrier end comes at its next event (or its end). */
  if (parallel_begins != 4 || parallel_ends != 4 ||
      implicit_begins != 4 * threads || barrier_ends < 4 + 3 * (threads - 1) ||
      sum != 4 * threads) {
    printf("FAIL: %d parallel_begin, %d parallel_end, %d implicit task "
           "begins, %d barrier ends for 4 regions of %d threads\n",
           parallel_begins, parallel_ends, implicit_begins, barrier_ends,
           threads);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
