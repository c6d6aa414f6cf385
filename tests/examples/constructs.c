/*
 * constructs.c -- every construct pomp-instr handles, in plain OpenMP, with a
 * structure simple enough that the OMPT callbacks it must produce can be
 * counted exactly (tests/examples/meson.build holds the formulas, for a
 * team of n threads and R repetitions).  Built with pomp-cc, run under the
 * checking tool; its stdout must equal a plain gcc -fopenmp build's.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 64

static double a[LEN];

static double work(int i) { return (double)(i % 7) * 0.5; }

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2;
  double checksum = 0.0;
  long hits = 0, entries = 0;
  int singles = 0, masters = 0, secs = 0, sec10 = 0, sec100 = 0;

  for (int r = 0; r < reps; r++) {
    /* parallel for: 1 region, 1 loop per thread, implicit barrier of the
       region only */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < LEN; i++)
      a[i] = work(i + r);

#pragma omp parallel shared(checksum, hits, entries, singles, masters, secs)
    {
      double local = 0.0;
      /* a loop with a reduction: implicit workshare barrier */
#pragma omp for schedule(dynamic, 4) reduction(+ : checksum)
      for (int i = 0; i < LEN; i++)
        checksum += a[i];

      /* a nowait loop: no barrier */
#pragma omp for nowait
      for (int i = 0; i < LEN; i++)
        local += a[i];

#pragma omp critical(hits)
      hits += (long)local;

#pragma omp critical
      {
        entries += 1;
      }

#pragma omp single
      singles++;

#pragma omp master
      masters++;

#pragma omp barrier

#pragma omp sections
      {
        {
#pragma omp atomic
          secs++;
        }
#pragma omp section
        {
#pragma omp atomic
          secs++;
        }
      }
    }
  }

#pragma omp parallel sections
  {
#pragma omp section
    sec10 += 10;
#pragma omp section
    sec100 += 100;
  }

  printf("checksum %.1f hits %ld entries %ld singles %d masters %d "
         "sections %d\n",
         checksum, hits, entries, singles, masters, secs + sec10 + sec100);
  return 0;
}
