/*
 * diff_worksharing.c -- worksharing constructs for the differential tests:
 * loops with every schedule, nowait, reductions, parallel for, sections,
 * parallel sections, single (with nowait, with copyprivate).
 *
 *   diff_worksharing R
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  long checks = 0;
  int v[N];
  for (int r = 0; r < reps; r++) {
    long s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0;
    int sec = 0, psec = 0, singles = 0, copied_ok = 0;
#pragma omp parallel
    {
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++)
        v[i] = i;
#pragma omp for schedule(static, 7) reduction(+ : s1)
      for (int i = 0; i < N; i++)
        s1 += v[i];
#pragma omp for schedule(dynamic, 5) reduction(+ : s2)
      for (int i = 0; i < N; i++)
        s2 += v[i];
#pragma omp for schedule(guided) reduction(+ : s3)
      for (int i = 0; i < N; i++)
        s3 += v[i];
#pragma omp for schedule(runtime) nowait reduction(+ : s4)
      for (int i = 0; i < N; i++)
        s4 += v[i];
#pragma omp barrier
#pragma omp sections
      {
#pragma omp section
        {
#pragma omp atomic
          sec += 1;
        }
#pragma omp section
        {
#pragma omp atomic
          sec += 10;
        }
#pragma omp section
        {
#pragma omp atomic
          sec += 100;
        }
      }
#pragma omp single
      singles++;
#pragma omp single nowait
      {
#pragma omp atomic
        singles += 10;
      }
      int mine = -1;
#pragma omp single copyprivate(mine)
      mine = r + 7;
#pragma omp atomic
      copied_ok += mine == r + 7;
    }
#pragma omp parallel for reduction(+ : s5)
    for (int i = 0; i < N; i++)
      s5 += i;
#pragma omp parallel for schedule(dynamic) reduction(+ : s6)
    for (int i = 0; i < N; i++)
      s6 += 2 * i;
#pragma omp parallel sections
    {
#pragma omp section
      {
#pragma omp atomic
        psec += 1;
      }
#pragma omp section
      {
#pragma omp atomic
        psec += 2;
      }
    }
    long want = N * (N - 1) / 2;
    checks += (s1 == want) + (s2 == want) + (s3 == want) + (s4 == want) +
              (s5 == want) + (s6 == 2 * want) + (sec == 111) + (psec == 3) +
              (singles == 11) + (copied_ok == omp_get_max_threads());
  }
  printf("worksharing: %ld of %d checks\n", checks, 10 * reps);
  return checks == 10L * reps ? 0 : 1;
}
