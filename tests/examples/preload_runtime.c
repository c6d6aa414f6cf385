/*
 * preload_runtime.c -- a program whose results depend on its waits being
 * real: tasks and taskwait (fib), an explicit barrier between two phases,
 * a loop's implicit barrier before its data is read.  Run with LLVM's
 * libomp preloaded in front of libgomp (tau_exec -ompt does so), it must
 * print what it prints on libgomp alone.
 */
#include <omp.h>
#include <stdio.h>

static int fib(int n) {
  int x, y;
  if (n < 2)
    return n;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

#define N 4096
static long a[N], b[N];

int main(void) {
  int f = 0;
  long sum = 0, phased = 0;
#pragma omp parallel
  {
#pragma omp single
    f = fib(18);
#pragma omp for
    for (int i = 0; i < N; i++)
      a[i] = i;
    /* the loop's implicit barrier: every a[i] is written */
#pragma omp for reduction(+ : sum)
    for (int i = 0; i < N; i++)
      sum += a[N - 1 - i];
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = me; i < N; i += n)
      b[i] = 2 * a[i];
#pragma omp barrier
#pragma omp atomic
    phased += b[(me * 7919) % N] - 2 * a[(me * 7919) % N];
  }
  printf("fib %d sum %ld phased %ld\n", f, sum, phased);
  return 0;
}
