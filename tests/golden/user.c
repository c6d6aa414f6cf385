/* User instrumentation: #pragma pomp inst begin/end/event (user regions),
 * init/finalize/on/off, and noinstrument/instrument around a range. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

static int work(int n) {
  int s = 0;
#pragma pomp inst begin(work loop)
  for (int i = 0; i < n; i++)
    s += i;
#pragma pomp inst end(work loop)
  return s;
}

int main(void) {
  int total = 0;
#pragma pomp inst init
#pragma pomp inst begin(main)
#pragma omp parallel num_threads(2) shared(total)
  {
    int w;
#pragma pomp inst begin(body*with\star)
    w = work(10);
#pragma omp atomic
    total += w;
#pragma pomp inst event(added)
#pragma pomp inst end(body*with\star)
  }
  CHECK_LINE();
#pragma pomp inst off
#pragma pomp noinstrument
#pragma omp parallel num_threads(2) shared(total)
  {
#pragma omp critical
    total += 1;
  }
  CHECK_LINE();
#pragma pomp instrument
#pragma pomp inst on
#pragma pomp inst end(main)
#pragma pomp inst finalize
  printf("total=%d\n", total);
  CHECK_LINE();
  return 0;
}
