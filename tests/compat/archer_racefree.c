/*
 * archer_racefree.c -- a race-free program for Archer (LLVM's OMPT race
 * detector) on a pomp-cc gcc build: every access to shared data is ordered
 * by an OpenMP construct that Archer sees only through OMPT callbacks
 * (libgomp's own synchronisation is invisible to ThreadSanitizer).  Archer
 * must report nothing.
 *
 *   archer_racefree R      (R repetitions; regions are repeated so that
 *                           pool threads are reused, as in real programs)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

static double grid[N];
static long counter;

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  long checks = 0;
  for (int r = 0; r < reps; r++) {
    long crit = 0, named = 0, produced = 0, consumed = 0, mastered = 0;
    double sum = 0.0, dyn = 0.0, gui = 0.0, par = 0.0;
    /* GCC updates a long double under libgomp's atomic lock: two atomic
     * constructs on it exclude each other through that one lock */
    long double wide = 0.0L;
    int sections = 0, nthreads = 1;
    int a[N];
#pragma omp parallel
    {
      /* worksharing loop, then its implicit barrier orders the reads */
#pragma omp for schedule(static)
      for (int i = 0; i < N; i++)
        a[i] = i + r;
#pragma omp for schedule(static) reduction(+ : sum)
      for (int i = 0; i < N; i++)
        sum += a[N - 1 - i];
#pragma omp for schedule(dynamic, 3) reduction(+ : dyn)
      for (int i = 0; i < N; i++)
        dyn += a[i];
#pragma omp for schedule(guided) reduction(+ : gui)
      for (int i = 0; i < N; i++)
        gui += a[(i + 7) % N];
      /* single writes, everybody reads after its barrier */
#pragma omp single
      produced = a[N / 2];
#pragma omp atomic
      consumed += produced;
#pragma omp atomic
      wide += 1.0L;
#pragma omp atomic
      wide += 2.0L;
      /* master writes; an explicit barrier publishes */
#pragma omp master
      {
        mastered = produced + 1;
        nthreads = omp_get_num_threads();
      }
#pragma omp barrier
#pragma omp critical
      crit += mastered;
#pragma omp critical(other)
      named += 1;
      /* sections write disjoint halves of a shared array */
#pragma omp sections
      {
#pragma omp section
        {
          for (int i = 0; i < N / 2; i++)
            grid[i] += 1.0;
          sections += 1;
        }
#pragma omp section
        {
          for (int i = N / 2; i < N; i++)
            grid[i] += 1.0;
        }
      }
#pragma omp single
      sections += 10;
      /* read what the master thread wrote in the previous repetition
       * (ordered by that region's end and this region's start) */
      if (counter < r)
        crit = -1;
#pragma omp barrier
#pragma omp master
      counter += 1;
    }
    /* the primary thread reads what every thread wrote */
#pragma omp parallel reduction(+ : par)
    {
      par += a[omp_get_thread_num() % N];
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++)
      grid[i] *= 0.5;
    long want = (long)N * (N - 1) / 2 + (long)N * r;
    checks += (sum == want) + (dyn == want) + (gui == want) +
              (consumed == (long)produced * nthreads) +
              (crit == (long)mastered * nthreads) + (named == nthreads) +
              (sections == 11) + (wide == 3.0L * nthreads);
    (void)par;
  }
  printf("racefree: %ld of %d checks, counter %ld\n", checks, 8 * reps,
         counter);
  return checks == 8L * reps ? 0 : 1;
}
