/*
 * hand_quiet_block.c -- the block events of a parallel construct that
 * libpompt's trampoline began go quiet (bridge.h, bridge_block_t):
 * Parallel_begin only clears the task's early_begun, Parallel_end only
 * records its return address, and the trampoline does the rest when the
 * block's function returns.  Each construct below runs 4 times with 2
 * threads, and what tools see must be what the general path gives:
 *  - a barrier of libgomp's in the block after its Parallel_begin (GCC's
 *    own, not a construct's) is no construct's and stays unreported, as
 *    when Parallel_begin cleared early_begun itself (a copyin barrier
 *    before Parallel_begin would be reported);
 *  - a region nested in the block takes the thread's block over: the outer
 *    Parallel_end after it takes the general path, every region still ends
 *    with its implicit tasks and barrier;
 *  - a block left without its Parallel_end (as a cancelled region leaves
 *    it) is left when its function returns, and the next execution from the
 *    same storage starts clean;
 *  - a construct whose reduction GCC combines after the block: each
 *    thread's reduction callbacks still come, before its barrier, and
 *    where GCC combines under libgomp's atomic lock (two list items) the
 *    lock's entry does the end first, so that the lock is the reduction's
 *    (no mutex callbacks);
 *  - a combined parallel loop's Loop_exit_parallel_end goes quiet too: its
 *    loop's work end still comes, before its barrier, on every thread;
 *  - a master region the block leaves open ends when the block's function
 *    returns, with the quiet Parallel_end's codeptr_ra, which
 *    pompt_region_info knows as the parallel construct's once its
 *    Parallel_exit recorded it (a quiet end records no call site).
 * The program is its own tool.  Prints PASS or the first violation.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "hand.h"
#include "own_tool.h"

enum { RUNS = 4 };

static int parallel_begins, parallel_ends, implicit_begins, implicit_ends;
static int other_barriers, implicit_barrier_begins, reductions_begun,
    reductions_ended, loops_begun, loops_ended, loop_end_order_errors;
static _Thread_local int loop_open; /* the thread's loop, begun not ended */
static int masked_begun, masked_ended, mutex_acquires;
static _Thread_local int reducing; /* the thread's reduction, not ended */
static int reduction_order_errors;
static const void *masked_end_codeptr;
typedef int (*region_info_t)(const void *codeptr, const char **ctc);
static region_info_t region_info;

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

static void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task, uint64_t count,
                    const void *codeptr) {
  (void)type, (void)parallel, (void)task, (void)count, (void)codeptr;
  if (endpoint == ompt_scope_begin) {
    loop_open = 1;
    __atomic_fetch_add(&loops_begun, 1, __ATOMIC_RELAXED);
  } else {
    loop_open = 0;
    __atomic_fetch_add(&loops_ended, 1, __ATOMIC_RELAXED);
  }
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned impl,
                             ompt_wait_id_t wait_id, const void *codeptr) {
  (void)kind, (void)hint, (void)impl, (void)wait_id, (void)codeptr;
  __atomic_fetch_add(&mutex_acquires, 1, __ATOMIC_RELAXED);
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                      ompt_data_t *task, const void *codeptr) {
  (void)parallel, (void)task;
  if (endpoint == ompt_scope_begin) {
    __atomic_fetch_add(&masked_begun, 1, __ATOMIC_RELAXED);
  } else {
    __atomic_fetch_add(&masked_ended, 1, __ATOMIC_RELAXED);
    masked_end_codeptr = codeptr; /* the primary thread's only */
  }
}

static void on_sync(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                    ompt_data_t *parallel, ompt_data_t *task,
                    const void *codeptr) {
  (void)parallel, (void)task, (void)codeptr;
  if (loop_open) /* a region's end barrier inside its loop */
    __atomic_fetch_add(&loop_end_order_errors, 1, __ATOMIC_RELAXED);
  if (reducing && kind != ompt_sync_region_reduction)
    __atomic_fetch_add(&reduction_order_errors, 1, __ATOMIC_RELAXED);
  if (kind == ompt_sync_region_barrier_implicit_parallel) {
    if (endpoint == ompt_scope_begin)
      __atomic_fetch_add(&implicit_barrier_begins, 1, __ATOMIC_RELAXED);
  } else if (kind != ompt_sync_region_reduction) {
    __atomic_fetch_add(&other_barriers, 1, __ATOMIC_RELAXED);
  }
}

static void on_reduction(ompt_sync_region_t kind,
                         ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
                         ompt_data_t *task, const void *codeptr) {
  (void)kind, (void)parallel, (void)task, (void)codeptr;
  reducing = endpoint == ompt_scope_begin;
  __atomic_fetch_add(endpoint == ompt_scope_begin ? &reductions_begun
                                                  : &reductions_ended,
                     1, __ATOMIC_RELAXED);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint,
                             ompt_data_t *parallel, ompt_data_t *task,
                             unsigned actual, unsigned index, int flags) {
  (void)parallel, (void)task, (void)actual, (void)index;
  if (!(flags & ompt_task_implicit))
    return;
  __atomic_fetch_add(endpoint == ompt_scope_begin ? &implicit_begins
                                                  : &implicit_ends,
                     1, __ATOMIC_RELAXED);
}

static void register_callbacks(void) {
  set_callback(ompt_callback_parallel_begin,
               (ompt_callback_t)on_parallel_begin);
  set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
  set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
  set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync);
  set_callback(ompt_callback_reduction, (ompt_callback_t)on_reduction);
  set_callback(ompt_callback_work, (ompt_callback_t)on_work);
  set_callback(ompt_callback_masked, (ompt_callback_t)on_masked);
  set_callback(ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire);
  region_info = (region_info_t)own_tool_lookup("pompt_region_info");
}

static const char ctc_barrier[] =
    CTC("type=parallel*file=quiet.c*lines=1,4");
static const char ctc_outer[] = CTC("type=parallel*file=quiet.c*lines=5,12");
static const char ctc_inner[] = CTC("type=parallel*file=quiet.c*lines=7,10");
static const char ctc_left[] = CTC("type=parallel*file=quiet.c*lines=13,16");
static const char ctc_reduce[] =
    CTC("type=parallel*file=quiet.c*lines=17,20*hasReduction=1");
static const char ctc_loop[] =
    CTC("type=parallelfor*file=quiet.c*lines=21,23*scheduleType=static");
static POMPT_Desc_t d_loop = {0, ctc_loop, 0};
static const char ctc_open[] = CTC("type=parallel*file=quiet.c*lines=24,27");
static POMPT_Desc_t d_open = {0, ctc_open, 0};
static POMPT_Desc_t d_master = {0, CTC("type=master*file=quiet.c*lines=25,26"),
                                0};
static POMPT_Desc_t d_barrier = {0, ctc_barrier, 0};
static POMPT_Desc_t d_outer = {0, ctc_outer, 0};
static POMPT_Desc_t d_inner = {0, ctc_inner, 0};
static POMPT_Desc_t d_left = {0, ctc_left, 0};
static POMPT_Desc_t d_reduce = {0, ctc_reduce, 0};
static const char ctc_reduce2[] =
    CTC("type=parallel*file=quiet.c*lines=28,31*hasReduction=1");
static POMPT_Desc_t d_reduce2 = {0, ctc_reduce2, 0};

/* The counts so far against those expected; 0 when they agree.  The end
 * of a worker's implicit task and barrier come at its next event: the
 * primary thread's (one per region) are counted, every begin. */
static int check(const char *what, int regions, int tasks) {
  int ok = parallel_begins == regions && parallel_ends == regions &&
           implicit_begins == tasks && implicit_barrier_begins == tasks &&
           implicit_ends >= regions && other_barriers == 0 &&
           reductions_begun == reductions_ended;
  if (!ok)
    printf("FAIL after %s: %d/%d parallel_begin/end (expected %d), %d/%d "
           "implicit task begins/ends (expected %d, at least %d ends), %d "
           "implicit barrier begins, %d other barriers (expected 0), "
           "reductions %d begun %d ended\n",
           what, parallel_begins, parallel_ends, regions, implicit_begins,
           implicit_ends, tasks, regions, implicit_barrier_begins,
           other_barriers, reductions_begun, reductions_ended);
  return !ok;
}

/* RUNS executions (r) of the construct of descriptor d, its region of the
 * directive omp, its block the rest, which has the block's events as
 * pomp-instr writes them (team: the storage); counted in regions and
 * tasks. */
#define RUN_REGIONS(d, omp, ...)                                               \
  for (int r = 0; r < RUNS; r++) {                                             \
    POMPT_Team_t team;                                                         \
    POMPT_Parallel_fork(&(d), &team);                                          \
    _Pragma(omp) {                                                             \
      __VA_ARGS__                                                              \
      NO_TAIL;                                                                 \
    }                                                                          \
    POMPT_Parallel_exit(&team);                                                \
    NO_TAIL;                                                                   \
    regions++;                                                                 \
    tasks += threads;                                                          \
  }

int main(void) {
  int regions = 0, tasks = 0, threads = 0, sum = 0;
  RUN_REGIONS(d_barrier, "omp parallel num_threads(2)",
              POMPT_Parallel_begin(&team);
              _Pragma("omp barrier");
              if (omp_get_thread_num() == 0) threads = omp_get_num_threads();
              POMPT_Parallel_end(&team);)
  if (check("a barrier of libgomp's in the block", regions, tasks))
    return 1;

  for (int r = 0; r < RUNS; r++) {
    POMPT_Team_t outer;
    POMPT_Parallel_fork(&d_outer, &outer);
#pragma omp parallel num_threads(2)
    {
      POMPT_Parallel_begin(&outer);
      POMPT_Team_t inner;
      POMPT_Parallel_fork(&d_inner, &inner);
#pragma omp parallel num_threads(2)
      {
        POMPT_Parallel_begin(&inner);
        __atomic_fetch_add(&sum, 1, __ATOMIC_RELAXED);
        POMPT_Parallel_end(&inner);
        NO_TAIL;
      }
      POMPT_Parallel_exit(&inner);
      POMPT_Parallel_end(&outer);
      NO_TAIL;
    }
    POMPT_Parallel_exit(&outer);
    NO_TAIL;
  }
  /* Nested regions are teams of one (OMP_MAX_ACTIVE_LEVELS=1 in the tests'
   * environment) or of two: sum counts their implicit tasks. */
  regions += RUNS * (1 + threads);
  tasks += RUNS * threads + sum;
  if (check("regions nested in the block", regions, tasks))
    return 1;

  /* Every other run leaves without Parallel_end. */
  RUN_REGIONS(d_left, "omp parallel num_threads(2)",
              POMPT_Parallel_begin(&team);
              if (r % 2 == 0) POMPT_Parallel_end(&team);)
  if (check("blocks left without Parallel_end", regions, tasks))
    return 1;

  int total = 0;
  RUN_REGIONS(d_reduce, "omp parallel num_threads(2) reduction(+ : total)",
              POMPT_Parallel_begin(&team);
              total += 1;
              POMPT_Parallel_end(&team);)
  if (check("blocks with a reduction combined after them", regions, tasks))
    return 1;
  if (reductions_begun != RUNS * threads || total != RUNS * threads) {
    printf("FAIL: %d reductions begun for %d regions of %d threads (sum %d)\n",
           reductions_begun, RUNS, threads, total);
    return 1;
  }
  /* Two list items: GCC combines them under libgomp's atomic lock. */
  double part = 0;
  RUN_REGIONS(d_reduce2,
              "omp parallel num_threads(2) reduction(+ : total, part)",
              POMPT_Parallel_begin(&team);
              total += 1; part += 0.5;
              POMPT_Parallel_end(&team);)
  if (check("blocks with two reduction items", regions, tasks))
    return 1;
  if (reductions_begun != 2 * RUNS * threads || mutex_acquires != 0 ||
      reduction_order_errors != 0 || total != 2 * RUNS * threads ||
      part != 0.5 * RUNS * threads) {
    printf("FAIL: %d reductions begun for %d regions of %d threads (sum %d, "
           "%g), %d mutex acquisitions (expected 0), %d callbacks inside a "
           "reduction\n",
           reductions_begun, 2 * RUNS, threads, total, part, mutex_acquires,
           reduction_order_errors);
    return 1;
  }

  int iterations = 0;
  RUN_REGIONS(d_loop, "omp parallel num_threads(2)",
              POMPT_Parallel_begin_loop_enter(&team, 0, 7, 1);
              _Pragma("omp for nowait")
              for (int i = 0; i < 8; i++)
                  __atomic_fetch_add(&iterations, 1, __ATOMIC_RELAXED);
              POMPT_Loop_exit_parallel_end(&team);)
  if (check("combined parallel loops", regions, tasks))
    return 1;
  if (loops_begun != RUNS * threads || loops_ended != RUNS * threads ||
      loop_end_order_errors != 0 || iterations != RUNS * 8) {
    printf("FAIL: %d loops begun, %d ended for %d regions of %d threads (%d "
           "iterations); %d barriers inside a loop\n",
           loops_begun, loops_ended, RUNS, threads, iterations,
           loop_end_order_errors);
    return 1;
  }

  RUN_REGIONS(d_open, "omp parallel num_threads(2)",
              POMPT_Parallel_begin(&team);
              if (omp_get_thread_num() == 0) /* left open: no Master_end */
                  POMPT_Master_begin(&d_master);
              POMPT_Parallel_end(&team);)
  if (check("a master region left open in the block", regions, tasks))
    return 1;
  const char *ctc = NULL;
  if (masked_begun != RUNS || masked_ended != RUNS || !region_info ||
      !region_info(masked_end_codeptr, &ctc) || ctc != ctc_open) {
    printf("FAIL: %d master regions begun, %d ended (expected %d); their "
           "end's codeptr_ra %p is %s\n",
           masked_begun, masked_ended, RUNS, masked_end_codeptr,
           ctc ? ctc : "no construct's");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
