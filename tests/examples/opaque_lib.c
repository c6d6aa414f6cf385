/*
 * opaque_lib.c -- OpenMP code that pomp-cc does not compile: built into a
 * shared library with plain gcc -fopenmp, called by opaque_main.c (built
 * with pomp-cc).  libpompt sees these regions only through libgomp's
 * entries (GOMP_parallel, GOMP_parallel_loop_*, GOMP_parallel_sections,
 * GOMP_barrier, GOMP_loop_end, GOMP_sections_end, GOMP_critical_*,
 * GOMP_ordered_*, GOMP_atomic_*, GOMP_task, GOMP_taskwait,
 * GOMP_taskgroup_*, GOMP_teams_reg, GOMP_parallel_reductions) and the lock routines, which libpompt defines itself,
 * and reports them as a native runtime would: parallel regions, implicit
 * tasks and their end barriers, the barriers, the worksharing constructs'
 * implicit barriers, the combined constructs' work, critical and ordered
 * regions, libgomp's atomic lock, locks, explicit tasks, their taskwait
 * and taskgroup, teams leagues.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <time.h>

#include "opaque_lib.h"

/* A region with a barrier directive and a single construct (whose end
 * barrier is GOMP_barrier too): two barriers per thread. */
long opaque_barriers(void) {
  long s = 0;
#pragma omp parallel reduction(+ : s)
  {
    s += omp_get_thread_num() + 1;
#pragma omp barrier
#pragma omp single
    s += 100;
  }
  return s;
}

/* Parallel loops: GCC starts their regions with GOMP_parallel and shares
 * the iterations out with GOMP_loop_*_start / _next, which libpompt
 * observes only in the units pomp-instr instrumented at the chunk level:
 * the regions are reported, the loops' work is not. */
long opaque_dynamic(int n) {
  long s = 0;
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

long opaque_runtime(int n) {
  long s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += 2 * i;
  return s;
}

/* Loops GCC starts with the combined entries GOMP_parallel_loop_* (no
 * data shared with the region, bounds known before it): the region is
 * reported with the loop as work, of the entry's schedule, or of the
 * run-sched-var for schedule(runtime). */
static long filled[OPAQUE_FILL];

long opaque_fill(void) {
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < OPAQUE_FILL; i++)
    filled[i] = i;
#pragma omp parallel for schedule(runtime)
  for (int i = 0; i < OPAQUE_FILL; i++)
    filled[i] += i;
  long s = 0;
  for (int i = 0; i < OPAQUE_FILL; i++)
    s += filled[i];
  return s;
}

/* parallel sections, which GCC starts with GOMP_parallel_sections: the
 * region, with the sections' work on each thread. */
static long left, right;

long opaque_sections(void) {
#pragma omp parallel sections
  {
#pragma omp section
    left = 1;
#pragma omp section
    right = 2;
  }
  return left + right;
}

/* Tasks created by one thread of a region, which the team runs: each is
 * created and run through libgomp's GOMP_task, reported as an instrumented
 * task would be; the creating thread waits for them (GOMP_taskwait), and
 * the single construct ends in a barrier (GOMP_barrier). */
long opaque_tasks(int n) {
  long done[OPAQUE_TASKS] = {0}, s = 0;
  if (n > OPAQUE_TASKS)
    n = OPAQUE_TASKS;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i) shared(done)
      done[i] = i + 1;
    }
#pragma omp taskwait
    for (int i = 0; i < n; i++)
      s += done[i];
  }
  return s;
}

/* A region whose threads run the caller's (instrumented) code. */
long opaque_call(long (*fn)(int), int arg) {
  long s = 0;
#pragma omp parallel reduction(+ : s)
  s += fn(arg);
  return s;
}

/* Worksharing constructs inside a region, each with its implicit barrier,
 * which GCC calls GOMP_loop_end (a dynamic loop) and GOMP_sections_end:
 * reported as barrier_implicit_workshare.  Each thread then reads what the
 * others wrote before the barriers. */
static long shared_part[OPAQUE_FILL];

long opaque_worksharing(int n) {
  long s = 0;
  if (n > OPAQUE_FILL)
    n = OPAQUE_FILL;
#pragma omp parallel reduction(+ : s)
  {
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < n; i++)
      shared_part[i] = i;
#pragma omp sections
    {
#pragma omp section
      left = 5;
#pragma omp section
      right = 6;
    }
    for (int i = 0; i < n; i++)
      s += shared_part[i];
    s += left + right;
  }
  return s;
}

/* Critical regions, unnamed (GOMP_critical_start / _end) and named
 * (GOMP_critical_name_start / _end), one of each per iteration; an atomic
 * update of a long double, which has no atomic instruction (GCC brackets
 * it with GOMP_atomic_start / _end), per iteration; an array reduction,
 * which GCC combines under the same lock once per thread; and the lock
 * routines: a lock set and unset per iteration, a nest lock set twice and
 * unset twice per thread, a thread's own lock initialised, tested (taken:
 * no other thread has it) and destroyed. */
static long counted, named_counted, locked;
static long double weighed;
static omp_lock_t counter_lock;
static omp_nest_lock_t nest_lock;

long opaque_critical(int n) {
  counted = named_counted = locked = 0;
  weighed = 0;
  long both[2] = {0, 0}, tested = 0;
  omp_init_lock(&counter_lock);
  omp_init_nest_lock(&nest_lock);
#pragma omp parallel reduction(+ : both[:2], tested)
  {
    omp_lock_t own;
    omp_init_lock(&own);
    for (int i = 0; i < n; i++) {
#pragma omp critical
      counted++;
#pragma omp critical(opaque_name)
      named_counted += 2;
#pragma omp atomic
      weighed += 0.5L;
      both[0] += 1;
      both[1] += 2;
      omp_set_lock(&counter_lock);
      locked++;
      omp_unset_lock(&counter_lock);
    }
    omp_set_nest_lock(&nest_lock);
    omp_set_nest_lock(&nest_lock);
    locked += 10;
    omp_unset_nest_lock(&nest_lock);
    omp_unset_nest_lock(&nest_lock);
    if (omp_test_lock(&own)) {
      tested++;
      omp_unset_lock(&own);
    }
    omp_destroy_lock(&own);
  }
  omp_destroy_nest_lock(&nest_lock);
  omp_destroy_lock(&counter_lock);
  long threads = both[0] / (n > 0 ? n : 1);
  return counted + named_counted + (weighed * 2 == threads * n) +
         (both[1] == 2 * both[0]) + (locked == threads * (n + 10)) +
         (tested == threads);
}

/* A taskgroup (GOMP_taskgroup_start / _end) around tasks one thread
 * creates: the creating thread reads their results after it. */
long opaque_taskgroup(void) {
  long part[4] = {0}, s = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(part)
        part[i] = 10 * (i + 1);
      }
    }
    s = part[0] + part[1] + part[2] + part[3];
  }
  return s;
}

/* An ordered loop: its iterations' ordered regions (GOMP_ordered_start /
 * _end) run one after the other, in the loop's order. */
long opaque_ordered(int n) {
  long last = -1, bad = 0;
#pragma omp parallel for ordered schedule(dynamic, 1) reduction(+ : bad)
  for (int i = 0; i < n; i++) {
#pragma omp ordered
    {
      bad += last != i - 1;
      last = i;
    }
  }
  return bad;
}

/* A host teams construct (GOMP_teams_reg): libgomp runs its three teams
 * one after the other on the calling thread, each an initial task of the
 * league. */
long opaque_teams(void) {
  long part[3] = {0, 0, 0};
#pragma omp teams num_teams(3)
  part[omp_get_team_num()] = omp_get_team_num() + 1;
  return part[0] + part[1] + part[2];
}

/* Tasks with dependences (GCC's depend array: out and inout items, in,
 * mutexinoutset and a depend object) and detachable tasks, one fulfilled
 * in its own block and, with more than one thread, one by its creating
 * thread after its block ran: libgomp's GOMP_task is all libpompt sees of
 * them. */
long opaque_dependences(void) {
  long x = 0, y = 0, z = 0, w = 0, v = 0;
  omp_depend_t o;
#pragma omp parallel
#pragma omp single
  {
#pragma omp depobj(o) depend(inout : w)
#pragma omp task depend(out : x) shared(x)
    x = 1;
#pragma omp task depend(in : x) depend(inout : y) shared(x, y)
    y = x + 1;
#pragma omp task depend(mutexinoutset : z) shared(z)
    z += 1;
#pragma omp task depend(depobj : o) shared(w)
    w = 5;
    omp_event_handle_t e1;
#pragma omp task detach(e1)
    omp_fulfill_event(e1);
    if (omp_get_num_threads() > 1) {
      /* another thread runs the block, and the creating thread fulfils
       * the event once the block has run: detach, then late_fulfill (not
       * an empty block: GCC 12 then never stores the event) */
      omp_event_handle_t e2;
      int ran = 0;
#pragma omp task detach(e2) shared(v, ran)
      {
        v = 2;
#pragma omp atomic write
        ran = 1;
      }
      for (int seen = 0; !seen;) {
#pragma omp atomic read
        seen = ran;
      }
      /* ran is the block's last store, but the task's block has ended
       * only when its function returned to the runtime a moment later: a
       * fulfilment in between is early (seen once in 80 runs under ASan).
       * No construct tells the creating thread that moment; a pause of
       * 20 ms makes the window thousands of times the block's tail. */
      struct timespec pause = {0, 20 * 1000 * 1000};
      nanosleep(&pause, NULL);
      omp_fulfill_event(e2);
    } else {
      v = 2;
    }
#pragma omp taskwait
#pragma omp depobj(o) destroy
  }
  return x + y + z + w + v;
}

/* A region with a task reduction (GOMP_parallel_reductions, which reads
 * the reductions from the first word of the region's data block): one
 * thread creates four tasks that take part in it, whose contributions the
 * region combines at its end. */
long opaque_task_reduction(void) {
  long s = 0;
#pragma omp parallel reduction(task, + : s)
#pragma omp single
  for (int i = 0; i < 4; i++) {
#pragma omp task in_reduction(+ : s)
    s += i + 1;
  }
  return s;
}
