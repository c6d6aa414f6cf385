/* Reductions moved to the parallel leaf, where GCC combines after the
 * region's block: combined parallel for / parallel sections, and a
 * parallel region whose block is one loop or sections construct; and the
 * cases left as written (a modifier, the region naming the variable, more
 * than one statement in the region). */
#include <stdio.h>

int main(void) {
  int sum = 0, a = 0, b = 0, sc = 0, x[4] = {0, 0, 0, 0};
  int i;
#pragma omp parallel num_threads(2)
#pragma omp for reduction(+ : sum)
  for (i = 0; i < 100; i++)
    sum += i;
#pragma omp parallel num_threads(2)
  {
#pragma omp sections reduction(+ : a) reduction(max : b) nowait
    {
#pragma omp section
      a += 1;
#pragma omp section
      b = b > 7 ? b : 7;
    }
  }
#pragma omp parallel for reduction(+ : x[0:4]) num_threads(2)
  for (i = 0; i < 8; i++)
    x[i % 4] += i;
#pragma omp parallel shared(sum) num_threads(2)
#pragma omp for reduction(+ : sum)
  for (i = 0; i < 10; i++)
    sum += i;
#pragma omp parallel num_threads(2)
  {
#pragma omp for reduction(+ : sum)
    for (i = 0; i < 10; i++)
      sum += i;
    a++;
  }
#pragma omp parallel for reduction(inscan, + : sc) num_threads(2)
  for (i = 0; i < 10; i++) {
    sc += i;
#pragma omp scan inclusive(sc)
    x[i % 4] += sc - sc;
  }
  printf("%d %d %d %d %d %d %d %d\n", sum, a > 0, b, sc, x[0], x[1], x[2],
         x[3]);
  return 0;
}
