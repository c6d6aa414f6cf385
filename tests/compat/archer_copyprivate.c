/*
 * archer_copyprivate.c -- a race-free program for Archer whose only
 * ordering between threads comes from `single copyprivate`: the executing
 * thread writes the values, libgomp hands them to the other threads inside
 * GOMP_single_copy_start/_end, and each thread reads its own copy after
 * the construct.  Archer must report nothing; it does only if libpompt
 * reports libgomp's barriers inside copyprivate (bridge_gomp_sync.c).
 *
 *   archer_copyprivate R      (R repetitions)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double tp_scale;
static int tp_round;
#pragma omp threadprivate(tp_scale, tp_round)

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  long bad = 0;
  for (int r = 0; r < reps; r++) {
    long errors = 0;
#pragma omp parallel reduction(+ : errors)
    {
      int base[4];
      /* threadprivate variables broadcast from the executing thread */
#pragma omp single copyprivate(tp_scale, tp_round)
      {
        tp_scale = 0.5 * (r + 1);
        tp_round = r;
      }
      if (tp_round != r || tp_scale != 0.5 * (r + 1))
        errors++;
      /* a private array, written by the executor, read by all after */
#pragma omp single copyprivate(base)
      for (int k = 0; k < 4; k++)
        base[k] = r * 10 + k;
      for (int k = 0; k < 4; k++)
        if (base[k] != r * 10 + k)
          errors++;
      /* and again, after the thread's own write to the same variable */
      tp_round = -1;
#pragma omp single copyprivate(tp_round)
      tp_round = r + 1;
      if (tp_round != r + 1)
        errors++;
    }
    bad += errors;
  }
  printf("copyprivate: %s\n", bad ? "WRONG" : "ok");
  return bad != 0;
}
