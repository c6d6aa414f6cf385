/* Known ways a textual instrumenter goes wrong: conditional compilation in
 * loop headers and as a construct's body, a clause followed by a line
 * continuation, macros in clauses and in _Pragma, a barrier that must not
 * appear inside parallel master, default(none) everywhere. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")
#define NT 2
#define LIMIT(n) ((n) / 2)
#define TASK_ADD(v) _Pragma("omp task shared(y) untied") v += 1;

int main(void) {
  int n = 16, s = 0, x = 0, y = 0;
#pragma omp parallel for num_threads(NT) reduction(+: s) if(LIMIT(n) > 1)
  for (int i = 0;
#if LIMIT(16) > 100
       i < 1000;
#else
       i < n;
#endif
       i++)
    s += i;
  CHECK_LINE();
#pragma omp parallel master num_threads(NT) default(none) shared(x, y)
  {
#pragma omp task untied \
    shared(x) default(none)
#ifdef NEVER
    x = -1;
#else
    { x = 1; }
#endif
#pragma omp taskwait
    TASK_ADD(y)
  }
  CHECK_LINE();
  printf("s=%d x=%d y=%d\n", s, x, y);
  return 0;
}
