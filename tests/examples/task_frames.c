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
 * run-time size), created in a task, a taskloop's.
 *
 * Each block also checks what ompt_get_task_memory answers: GCC passes a
 * task its firstprivate copies and the addresses of its shared variables in
 * one block, so the block reported for a task must hold the address of its
 * shared variable; an implicit task has none (size 0); the answer is always
 * 0 (no further block, as OpenMP 5.2 says for the last one).
 *
 *   task_frames R
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompt_get_task_info_t get_task_info;
static ompt_get_task_memory_t get_task_memory;
static int checks, errors;

static void fail(const char *what, const char *how) {
#pragma omp atomic
  errors++;
#pragma omp critical
  printf("%s: %s\n", what, how);
}

/* The block ompt_get_task_memory reports; shared: the address of a variable
 * the calling task shares, NULL for an implicit task. */
static void check_memory(const void *shared, const char *what) {
  void *addr = (void *)1;
  size_t size = 1;
  int more = get_task_memory(&addr, &size, 0);
#pragma omp atomic
  checks++;
  if (more != 0)
    fail(what, "ompt_get_task_memory says a further block follows");
  if (!shared) {
    if (size != 0)
      fail(what, "an implicit task has a block of memory");
    return;
  }
  int found = 0;
  for (size_t off = 0; addr && off + sizeof shared <= size; off++) {
    const void *p;
    memcpy(&p, (const char *)addr + off, sizeof p);
    found |= p == shared;
  }
  if (!found)
    fail(what, "the task's block does not hold its shared variable's address");
  size = 1;
  if (get_task_memory(&addr, &size, 1) != 0 || size != 0)
    fail(what, "ompt_get_task_memory answers a block 1");
}

/* here: a variable of the calling block, so in its outlined function;
 * shared: as for check_memory. */
static __attribute__((noinline)) void
check(const volatile char *here, const void *shared, const char *what) {
  int flags = 0;
  ompt_frame_t *frame = NULL;
  if (!get_task_info) /* no tool: nothing to check */
    return;
  if (get_task_memory)
    check_memory(shared, what);
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
      check(&here, NULL, "implicit task");
#pragma omp single
      {
        int vla[len];
        for (int k = 0; k < len; k++)
          vla[k] = k;
        for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(sum)
          {
            volatile char t = (char)i;
            check(&t, &sum, "task");
#pragma omp task firstprivate(i) shared(sum)
            {
              volatile char u = (char)i;
              check(&u, &sum, "task in a task");
#pragma omp atomic
              sum += i;
            }
          }
        }
#pragma omp task firstprivate(vla) shared(sum)
        {
          volatile char v = (char)vla[0];
          check(&v, &sum, "task with a copy function");
#pragma omp atomic
          sum += vla[len - 1];
        }
#pragma omp task if(0) shared(sum)
        {
          volatile char w = 0;
          check(&w, &sum, "undeferred task");
#pragma omp atomic
          sum += 1;
        }
#pragma omp taskloop grainsize(2) shared(sum)
        for (int i = 0; i < 8; i++) {
          volatile char x = (char)i;
          check(&x, &sum, "taskloop task");
#pragma omp atomic
          sum += i;
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
  get_task_memory = (ompt_get_task_memory_t)lookup("ompt_get_task_memory");
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
