/* Constructs directly following each other's pragmas. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int a[32], i, hits = 0;
#pragma omp parallel
#pragma omp for
  for (i = 0; i < 32; i++)
    a[i] = i;
  CHECK_LINE();

#pragma omp parallel default(none) shared(a, hits) private(i)
#pragma omp single
#pragma omp critical
  {
    for (i = 0; i < 32; i++)
      hits += a[i] > 0;
  }
  CHECK_LINE();

#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
#pragma omp master
  {
#pragma omp atomic
    hits++;
  }
  CHECK_LINE();
  printf("hits=%d\n", hits);
  return 0;
}
