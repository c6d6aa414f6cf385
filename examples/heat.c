/*
 * heat.c - 2D heat diffusion on a small plate, solved by Jacobi iteration.
 *
 * An example OpenMP program for pompt.  It uses each of these constructs:
 *
 *   parallel for          initialise the plate
 *   parallel              the solver's team
 *   master                start and stop the clock
 *   barrier               (explicit) after the master sets the clock
 *   single                reset the per-sweep statistics, print progress
 *   for schedule(static) reduction(+:residual)
 *                         one Jacobi sweep with the squared residual
 *   critical(maxdiff)     (named) merge each thread's largest change
 *   for schedule(dynamic, 4)
 *                         copy the new plate over the old one
 *   for schedule(static)  count the hot cells
 *   critical              (unnamed) merge each thread's hot-cell count
 *   sections / section    two independent statistics of the final plate
 *
 * What it prints on stdout depends neither on the number of threads nor on
 * the order in which the reduction combines partial sums: floating-point
 * results are rounded, and no thread numbers or times are printed there.
 * Set HEAT_TIMING=1 to get the elapsed time on stderr.
 *
 * Usage: heat [sweeps]      (default 40 sweeps on a 32 x 32 plate)
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 32            /* plate size, including the fixed boundary */
#define HOT 5.0         /* a cell hotter than this counts as hot */
#define REPORT_EVERY 10 /* progress line every this many sweeps */

static double plate[N][N];
static double next[N][N];

static double absval(double x) {
  return x < 0.0 ? -x : x;
}

/* Boundary: the top edge is held at 100 degrees, the left edge falls
   linearly from 100 to 0, everything else starts (and stays on the other
   edges) at 0. */
static double initial_value(int i, int j) {
  if (i == 0)
    return 100.0;
  if (j == 0)
    return 100.0 * (double)(N - 1 - i) / (double)(N - 1);
  return 0.0;
}

int main(int argc, char **argv) {
  int sweeps = 40;
  double residual = 0.0;      /* sum of squared changes of one sweep */
  double maxdiff = 0.0;       /* largest change of one sweep */
  int hot = 0;                /* cells hotter than HOT at the end */
  double total = 0.0;         /* total heat of the final plate */
  double peak = 0.0;          /* hottest interior cell ... */
  int peak_i = 0, peak_j = 0; /* ... and where it is */
  double t0 = 0.0, elapsed = 0.0;

  if (argc > 1) {
    sweeps = atoi(argv[1]);
    if (sweeps < 1)
      sweeps = 1;
  }

  #pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      plate[i][j] = initial_value(i, j);
      next[i][j] = plate[i][j];
    }
  }

  #pragma omp parallel shared(residual, maxdiff, hot, total, peak, peak_i, \
                              peak_j, t0, elapsed)
  {
    #pragma omp master
    t0 = omp_get_wtime();

    #pragma omp barrier

    for (int sweep = 1; sweep <= sweeps; sweep++) {
      double local_max = 0.0;

      #pragma omp single
      {
        residual = 0.0;
        maxdiff = 0.0;
      }

      #pragma omp for schedule(static) reduction(+:residual)
      for (int i = 1; i < N - 1; i++) {
        for (int j = 1; j < N - 1; j++) {
          double v = 0.25 * (plate[i - 1][j] + plate[i + 1][j] +
                             plate[i][j - 1] + plate[i][j + 1]);
          double d = v - plate[i][j];
          next[i][j] = v;
          residual += d * d;
          if (absval(d) > local_max)
            local_max = absval(d);
        }
      }

      #pragma omp critical(maxdiff)
      {
        if (local_max > maxdiff)
          maxdiff = local_max;
      }

      #pragma omp for schedule(dynamic, 4)
      for (int i = 1; i < N - 1; i++) {
        for (int j = 1; j < N - 1; j++)
          plate[i][j] = next[i][j];
      }

      #pragma omp single
      {
        if (sweep % REPORT_EVERY == 0 || sweep == sweeps)
          printf("sweep %4d  residual %.6e  maxdiff %.6e\n", sweep, residual,
                 maxdiff);
      }
    }

    int local_hot = 0;
    #pragma omp for schedule(static)
    for (int i = 1; i < N - 1; i++) {
      for (int j = 1; j < N - 1; j++) {
        if (plate[i][j] > HOT)
          local_hot++;
      }
    }

    #pragma omp critical
    hot += local_hot;

    #pragma omp barrier

    #pragma omp sections
    {
      #pragma omp section
      {
        double sum = 0.0;
        for (int i = 1; i < N - 1; i++)
          for (int j = 1; j < N - 1; j++)
            sum += plate[i][j];
        total = sum;
      }
      #pragma omp section
      {
        double best = -1.0;
        for (int i = 1; i < N - 1; i++) {
          for (int j = 1; j < N - 1; j++) {
            if (plate[i][j] > best) {
              best = plate[i][j];
              peak_i = i;
              peak_j = j;
            }
          }
        }
        peak = best;
      }
    }

    #pragma omp master
    elapsed = omp_get_wtime() - t0;
  }

  printf("plate %dx%d after %d sweeps\n", N, N, sweeps);
  printf("total heat %.4f\n", total);
  printf("peak %.4f at (%d,%d)\n", peak, peak_i, peak_j);
  printf("hot cells %d of %d\n", hot, (N - 2) * (N - 2));

  const char *timing = getenv("HEAT_TIMING");
  if (timing != NULL && timing[0] != '\0' && timing[0] != '0')
    fprintf(stderr, "heat: %.6f s\n", elapsed);
  return 0;
}
