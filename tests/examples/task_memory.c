/*
 * task_memory.c -- ompt_get_task_memory answers the block of data an
 * explicit task runs with: GCC passes a task its firstprivate copies and
 * the addresses of its shared variables in one block, so the block
 * reported must hold the address of the task's shared variable.  Checked
 * for deferred and undeferred tasks, a task with a copy function, a task
 * in a task and a taskloop's tasks; an implicit task has no block (size
 * 0), and the answer is always 0 (no further block), as OpenMP 5.2 says
 * for the last one.
 *
 * The program is its own tool (own_tool.h); it prints "task_memory: N
 * checks, E errors" and exits 1 on an error.
 */
#include <omp-tools.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "own_tool.h"

static ompt_get_task_memory_t get_task_memory;
static atomic_int checks, errors;

static void check(int ok, const char *what) {
  atomic_fetch_add(&checks, 1);
  if (!ok) {
    atomic_fetch_add(&errors, 1);
    fprintf(stderr, "task_memory: %s\n", what);
  }
}

/* shared: the address of a variable the calling task shares, or NULL for
 * an implicit task. */
static __attribute__((noinline)) void check_block(const void *shared,
                                                  const char *what) {
  if (!get_task_memory)
    return;
  void *addr = (void *)1;
  size_t size = 1;
  int more = get_task_memory(&addr, &size, 0);
  check(more == 0, what);
  if (!shared) {
    check(size == 0, what);
    return;
  }
  int found = 0;
  for (size_t off = 0; addr && off + sizeof shared <= size; off++) {
    const void *p;
    memcpy(&p, (const char *)addr + off, sizeof p);
    found |= p == shared;
  }
  check(found, what);
  /* A block that does not exist */
  size = 1;
  check(get_task_memory(&addr, &size, 1) == 0 && size == 0, what);
}

static void register_callbacks(void) {
  get_task_memory =
      (ompt_get_task_memory_t)own_tool_lookup("ompt_get_task_memory");
}

int main(void) {
  long sum = 0;
  int len = 5;
#pragma omp parallel num_threads(2) shared(sum)
  {
    check_block(NULL, "implicit task");
#pragma omp single
    {
      int vla[len];
      for (int k = 0; k < len; k++)
        vla[k] = k;
      for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i) shared(sum)
        {
          check_block(&sum, "task");
#pragma omp task firstprivate(i) shared(sum)
          {
            check_block(&sum, "task in a task");
#pragma omp atomic
            sum += i;
          }
        }
      }
#pragma omp task firstprivate(vla) shared(sum)
      {
        check_block(&sum, "task with a copy function");
#pragma omp atomic
        sum += vla[len - 1];
      }
#pragma omp task if (0) shared(sum)
      {
        check_block(&sum, "undeferred task");
      }
#pragma omp taskloop grainsize(2) shared(sum)
      for (int i = 0; i < 8; i++) {
        check_block(&sum, "taskloop task");
#pragma omp atomic
        sum += i;
      }
    }
  }
  int e = atomic_load(&errors);
  printf("task_memory: sum %ld\n", sum);
  printf("task_memory: %d checks, %d errors\n", atomic_load(&checks), e);
  return e != 0;
}
