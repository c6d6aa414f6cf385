/* golden-args: --loop-level=iterations
 * Iteration events around loop bodies (a continue still reaches the end
 * event), the innermost body of collapsed loops, taskloop; none in simd. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

int main(void) {
  int a[32] = {0}, s = 0, n = 32;
  long k;
#pragma omp parallel for num_threads(2) reduction(+: s)
  for (int i = 0; i < n; i++) {
    if (i % 2)
      continue;
    s += i;
  }
  CHECK_LINE();
#pragma omp parallel num_threads(2) shared(a)
  {
#pragma omp for collapse(2)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 8; j++)
        a[i * 8 + j] = i + j;
#pragma omp for
    for (k = 0; k < 32; k += 4)
#pragma omp critical
      a[k] += 1;
#pragma omp for simd
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma omp single
#pragma omp taskloop grainsize(8)
    for (int i = 0; i < n; i++)
      a[i] *= 2;
  }
  CHECK_LINE();
  printf("s=%d a=%d %d %d\n", s, a[0], a[9], a[31]);
  return 0;
}
