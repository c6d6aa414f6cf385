/* Constructs found in real-world code (issue 7): a task reduction on a
 * combined worksharing construct, a metadirective as a construct's block,
 * atomic updates whose expression calls a function (here one that reaches
 * the same atomic again, as BOTS floorplan does). */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int count(int depth) {
  int n = 1;
  if (depth > 0) {
#pragma omp atomic
    n += count(depth - 1);
  }
  return n;
}

static double half(double v) { return v / 2; }

int main(void) {
  int x = 0, i, r = 0, v3[100];
  double d = 1.0;
  long m = 3;
#pragma omp parallel for num_threads(4) reduction(task, + : x)
  for (i = 0; i < 100; i++) {
    x++;
    if (i % 2 == 0) {
#pragma omp task in_reduction(+ : x)
      x--;
    }
  }
  CHECK_LINE();
#pragma omp parallel num_threads(2)
#pragma omp metadirective when(user = {condition(1)} : for) otherwise(single)
  for (int k = 0; k < 100; k++)
    v3[k] = 2 * k;
#pragma omp parallel num_threads(2) shared(r, d, m)
#pragma omp single
  {
    r = count(3);
#pragma omp atomic
    d = d + half(8.0);
#pragma omp atomic update
    m = (long)half(4.0
                   + 2.0) * m;
    CHECK_LINE();
#pragma omp atomic
    r += 0 * count(0); /* the call is part of a larger expression */
  }
  CHECK_LINE();
  printf("x=%d v3=%d,%d r=%d d=%g m=%ld\n", x, v3[0], v3[99], r, d, m);
  return 0;
}
