/*
 * frame_links.c -- the frames libpompt reports link to the program's frames
 * as a native runtime's do on x86-64: they are the frame pointers LLVM
 * libomp reports (flagged ompt_frame_cfa, as it flags them since its
 * frame-flag fix; ompt_frame_framepointer with POMPT_FRAME_FLAGS=
 * framepointer), and a task's exit_frame is the frame of the
 * routine that called the task's outlined function, which that function
 * sees as __builtin_frame_address(1) (LLVM's OMPT tests compare the two;
 * tools that attribute samples to call stacks rely on it).  Built at -O0
 * with frame pointers, checked for implicit tasks (nested too), explicit
 * tasks (deferred, undeferred, with a copy function, in a task) and a
 * taskloop's tasks, after a host teams region (whose end once cleared the
 * initial task's enter_frame flags).
 *
 * Also checked, from callbacks: a task that begins has the task it
 * suspended on this thread as ompt_get_task_info(1) (the frames next on
 * the stack); an implicit task waiting in its region's end barrier, its
 * code returned, has neither exit_frame nor enter_frame, and a task run
 * there still finds the region's encountering task two levels up.
 *
 * The program is its own tool (own_tool.h); it prints "frame_links: N
 * checks, E errors" and exits 1 on an error.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "own_tool.h"

static ompt_get_task_info_t get_task_info;
static atomic_int checks, errors, in_end_barrier;

static void check(int ok, const char *what, const void *a, const void *b) {
  atomic_fetch_add(&checks, 1);
  if (!ok) {
    atomic_fetch_add(&errors, 1);
    fprintf(stderr, "frame_links: %s (%p, %p)\n", what, a, b);
  }
}

/* The address kind the frames' flags carry: canonical frame addresses, or
 * what POMPT_FRAME_FLAGS asks for (the same addresses flagged as frame
 * pointers, as older libomp flags them). */
static int frame_kind(void) {
  const char *v = getenv("POMPT_FRAME_FLAGS");
  return v && !strcmp(v, "framepointer") ? ompt_frame_framepointer
                                         : ompt_frame_cfa;
}

/* caller: __builtin_frame_address(1) in the outlined function. */
static __attribute__((noinline)) void check_exit(void *caller,
                                                 const char *what) {
  ompt_frame_t *f = NULL;
  if (get_task_info(0, NULL, NULL, &f, NULL, NULL) != 2 || !f) {
    check(0, what, NULL, NULL);
    return;
  }
  check(f->exit_frame.ptr == caller, what, f->exit_frame.ptr, caller);
#if defined(__x86_64__)
  check(f->exit_frame_flags == (ompt_frame_runtime | frame_kind()),
        "exit_frame flags", (void *)(long)f->exit_frame_flags, NULL);
  /* The task one level up is inside the runtime call that runs this one. */
  ompt_frame_t *up = NULL;
  if (get_task_info(1, NULL, NULL, &up, NULL, NULL) == 2 && up &&
      up->enter_frame.ptr)
    check(up->enter_frame_flags == (ompt_frame_runtime | frame_kind()),
          "enter_frame flags one level up",
          (void *)(long)up->enter_frame_flags, NULL);
#endif
}
#define CHECK_EXIT(what)                                                       \
  do {                                                                         \
    if (get_task_info)                                                         \
      check_exit(__builtin_frame_address(1), what);                            \
  } while (0)

static void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status,
                             ompt_data_t *next) {
  if (status != ompt_task_switch)
    return;
  ompt_data_t *t0 = NULL, *t1 = NULL;
  get_task_info(0, NULL, &t0, NULL, NULL, NULL);
  get_task_info(1, NULL, &t1, NULL, NULL, NULL);
  check(t0 == next, "task_schedule: level 0 is not the new task", t0, next);
  check(t1 == prior, "task_schedule: level 1 is not the suspended task", t1,
        prior);
  /* A task run in its region's end barrier: the implicit task it suspended
   * has returned from its code, and its ancestor, the region's
   * encountering task, is still there (the initial task here). */
  int f1 = 0, f2 = 0;
  ompt_frame_t *fr1 = NULL;
  if (get_task_info(1, &f1, NULL, &fr1, NULL, NULL) == 2 &&
      (f1 & ompt_task_implicit) && fr1 && !fr1->exit_frame.ptr) {
    atomic_fetch_add(&in_end_barrier, 1);
    check(get_task_info(2, &f2, NULL, NULL, NULL, NULL) == 2 &&
              (f2 & ompt_task_initial),
          "a task in an end barrier: level 2 is not the initial task",
          (void *)(long)f2, NULL);
  }
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel, ompt_data_t *task,
                                const void *codeptr) {
  (void)parallel, (void)task, (void)codeptr;
  if (kind != ompt_sync_region_barrier_implicit_parallel ||
      endpoint != ompt_scope_begin)
    return;
  int flags = 0;
  ompt_frame_t *f = NULL;
  if (get_task_info(0, &flags, NULL, &f, NULL, NULL) != 2 || !f ||
      (flags & ompt_task_initial))
    return;
  check(f->exit_frame.ptr == NULL && f->enter_frame.ptr == NULL,
        "end barrier: the implicit task has a frame", f->exit_frame.ptr,
        f->enter_frame.ptr);
}

static void register_callbacks(void) {
  get_task_info = (ompt_get_task_info_t)own_tool_lookup("ompt_get_task_info");
  if (!get_task_info)
    return;
  set_callback(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
  set_callback(ompt_callback_sync_region_wait,
               (ompt_callback_t)on_sync_region_wait);
}

int main(void) {
  long sum = 0;
  int len = 5;
  /* A league first: its end must leave the initial task's frames as they
   * were (its enter_frame's flags included). */
#pragma omp teams num_teams(2) reduction(+ : sum)
  sum += 1;
#pragma omp parallel num_threads(2) shared(sum)
  {
    CHECK_EXIT("implicit task");
#pragma omp parallel num_threads(2) shared(sum)
    {
      CHECK_EXIT("nested implicit task");
    }
#pragma omp single
    {
      int vla[len];
      for (int k = 0; k < len; k++)
        vla[k] = k;
      for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(sum)
        {
          CHECK_EXIT("task");
#pragma omp task firstprivate(i) shared(sum)
          {
            CHECK_EXIT("task in a task");
#pragma omp atomic
            sum += i;
          }
        }
      }
#pragma omp task firstprivate(vla) shared(sum)
      {
        CHECK_EXIT("task with a copy function");
#pragma omp atomic
        sum += vla[len - 1];
      }
#pragma omp task if (0) shared(sum)
      {
        CHECK_EXIT("undeferred task");
      }
#pragma omp taskloop grainsize(2) shared(sum)
      for (int i = 0; i < 8; i++) {
        CHECK_EXIT("taskloop task");
#pragma omp atomic
        sum += i;
      }
    }
  }
  /* Tasks that run in the region's end barrier (nothing else waits). */
#pragma omp parallel num_threads(2) shared(sum)
  {
#pragma omp single nowait
    for (int i = 0; i < 8; i++) {
#pragma omp task firstprivate(i) shared(sum)
      {
        CHECK_EXIT("task in an end barrier");
#pragma omp atomic
        sum += i;
      }
    }
  }
  if (get_task_info)
    check(atomic_load(&in_end_barrier) > 0, "no task ran in an end barrier",
          NULL, NULL);
  int e = atomic_load(&errors);
  printf("frame_links: sum %ld\n", sum);
  printf("frame_links: %d checks, %d errors\n", atomic_load(&checks), e);
  return e != 0;
}
