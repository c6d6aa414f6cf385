/*
 * task_frames.c -- the implicit and explicit tasks of a pomp-cc build begin
 * before GCC's outlined function of their region or task runs, as in a
 * native runtime: the task's exit_frame (the frame of the runtime code that
 * called the task's code) lies above every frame of that code, the outlined
 * function's own included.  (That function reads its firstprivate data
 * before its first statement; a tool that orders memory through OMPT needs
 * the begin before that read.)
 *
 * The program is its own tool (ompt_start_tool below): each block checks
 * that a variable of its own, which lives in the outlined function's frame,
 * is below the exit_frame that ompt_get_task_info reports.  Tasks: deferred
 * and undeferred, with and without a copy function (a firstprivate array of
 * run-time size), created in a task.
 *
 *   task_frames R
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static ompt_get_task_info_t get_task_info;
static int checks, errors;

/* here: a variable of the calling block, so in its outlined function. */
static __attribute__((noinline)) void check(const volatile char *here,
                                            const char *what) {
  int flags = 0;
  ompt_frame_t *frame = NULL;
  if (!get_task_info) /* no tool: nothing to check */
    return;
  if (get_task_info(0, &flags, NULL, &frame, NULL, NULL) != 2 || !frame ||
      !frame->exit_frame.ptr) {
#pragma omp atomic
    errors++;
    printf("%s: no task information\n", what);
    return;
  }
  int ok = (uintptr_t)here < (uintptr_t)frame->exit_frame.ptr;
#pragma omp atomic
  checks++;
  if (!ok) {
#pragma omp atomic
    errors++;
#pragma omp critical
    printf("%s: block's variable %p not below exit_frame %p\n", what,
           (const void *)here, frame->exit_frame.ptr);
  }
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  int len = reps + 3;
  long sum = 0;
  for (int r = 0; r < reps; r++) {
    int base = r;
#pragma omp parallel firstprivate(base) shared(sum)
    {
      volatile char here = (char)base;
      check(&here, "implicit task");
#pragma omp single
      {
        int vla[len];
        for (int k = 0; k < len; k++)
          vla[k] = k;
        for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(sum)
          {
            volatile char t = (char)i;
            check(&t, "task");
#pragma omp task firstprivate(i) shared(sum)
            {
              volatile char u = (char)i;
              check(&u, "task in a task");
#pragma omp atomic
              sum += i;
            }
          }
        }
#pragma omp task firstprivate(vla) shared(sum)
        {
          volatile char v = (char)vla[0];
          check(&v, "task with a copy function");
#pragma omp atomic
          sum += vla[len - 1];
        }
#pragma omp task if(0) shared(sum)
        {
          volatile char w = 0;
          check(&w, "undeferred task");
#pragma omp atomic
          sum += 1;
        }
      }
    }
  }
  printf("task_frames: sum %ld\n", sum);
  if (get_task_info)
    fprintf(stderr, "task_frames: %d checks, %d errors\n", checks, errors);
  return errors != 0;
}

static int initialize(ompt_function_lookup_t lookup, int device,
                      ompt_data_t *data) {
  (void)device, (void)data;
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  return 1;
}

static void finalize(ompt_data_t *data) {
  (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version,
                                          const char *runtime) {
  (void)version, (void)runtime;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
