/* Constructs written in macros with _Pragma. */
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")
#define PARALLEL_DO(stmt) _Pragma("omp parallel num_threads(2)") { stmt; }
#define LOCKED(stmt) _Pragma("omp critical") stmt

int main(void) {
  int x = 0;
  PARALLEL_DO(LOCKED(x++));
  CHECK_LINE();
  printf("x=%d\n", x);
  return 0;
}
