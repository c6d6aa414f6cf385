/* atomic (every form), flush, ordered (block, threads, stand-alone
 * doacross), masked (filter), scope, critical with hint. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int pick(int x) { return x % 2; }

int main(void) {
  int x = 0, v = 0, w = 0, big = 0, flag = 0, order[8], k = 0, b[9] = {0};
  int hits = 0, s = 0, n = 8, who = -1;
#pragma omp parallel num_threads(4) shared(x, v, w, big, flag, order, k, b, hits, s, who)
  {
#pragma omp atomic
    x++;
#pragma omp atomic update seq_cst
    x += 2;
#pragma omp atomic read
    v = x;
#pragma omp atomic write
    w = 7;
#pragma omp atomic capture
    v = x++;
#pragma omp atomic capture
    { v = x; x *= 1; }
#pragma omp atomic compare
    if (big < x) { big = x; }
#pragma omp atomic compare capture
    { v = big; if (big == -1) { big = 0; } }
    (void)v;
#pragma omp flush
#pragma omp flush(flag)
    CHECK_LINE();
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
#pragma omp ordered threads
      order[i] = k++;
    }
#pragma omp for ordered(1)
    for (int i = 1; i < 9; i++) {
#pragma omp ordered depend(sink: i - 1)
      b[i] = b[i - 1] + 1;
#pragma omp ordered depend(source)
    }
    CHECK_LINE();
#pragma omp masked
    who = 0;
#pragma omp masked filter(pick(3))
    {
#pragma omp atomic
      hits++;
    }
#pragma omp scope reduction(+: s)
    s += 1;
#pragma omp scope nowait
    {
#pragma omp critical (named) hint(0)
      hits += 10;
    }
  }
  CHECK_LINE();
  printf("x=%d w=%d big=%d order=%d%d%d b=%d hits=%d s=%d who=%d\n", x, w, big,
         order[0], order[3], order[7], b[8], hits, s, who);
  return 0;
}
