#include <omp.h>

/* Instrumented code must not add warnings: an unbraced loop body followed
 * by the closing events (clang's -Wmisleading-indentation). */
int sum_to(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

/* And the inline events of pomp.h (critical, master, atomic, handed tasks)
 * and the lock calls, compiled into the unit. */
int synced(void) {
  int a = 0;
  omp_lock_t l;
  omp_init_lock(&l);
#pragma omp parallel shared(a)
  {
#pragma omp critical(synced)
    a++;
#pragma omp master
    a++;
#pragma omp atomic
    a++;
#pragma omp single
    for (int i = 0; i < 3; i++) {
#pragma omp task firstprivate(i) shared(a)
      {
#pragma omp atomic
        a += i;
      }
    }
    omp_set_lock(&l);
    a++;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  return a;
}

int main(void) { return sum_to(10) == 45 && synced() > 0 ? 0 : 1; }
