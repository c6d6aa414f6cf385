/* C11 atomics from GCC's <stdatomic.h> as construct bodies: clang rejects
 * the __atomic builtins GCC's macros expand to on _Atomic objects, so these
 * statements are missing from clang's tree and are found in the text. */
#include <stdatomic.h>
#include <stdio.h>

static atomic_int hits;
static atomic_long total;
static _Atomic double last;

int main(void) {
#pragma omp parallel num_threads(2)
  atomic_fetch_add(&hits, 1);
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    atomic_store(&last, 2.5);
#pragma omp for
    for (int i = 0; i < 10; i++)
      atomic_fetch_add_explicit(&total, i, memory_order_relaxed);
#pragma omp task
    atomic_fetch_sub(&hits, 1);
#pragma omp task
    {
      atomic_flag once = ATOMIC_FLAG_INIT;
      if (!atomic_flag_test_and_set(&once))
        atomic_fetch_add(&hits, 1);
    }
#pragma omp taskwait
#pragma omp critical
    atomic_exchange(&hits, atomic_load(&hits));
  }
  printf("%d %ld %.1f\n", atomic_load(&hits), atomic_load(&total),
         atomic_load(&last));
  return 0;
}
