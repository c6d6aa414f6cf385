/*
 * archer_opaque.c -- a race-free program for Archer whose synchronisation
 * lies in OpenMP code pomp-instr does not instrument: a parallel region
 * inside a target region (device code, not instrumented, run here by
 * libgomp's host fallback when no device is present), and regions marked
 * noinstrument.  Each thread writes its part of an array before a barrier
 * (a barrier directive, a loop's implicit barrier) and reads the others'
 * after it; tasks write what their creator reads after a taskwait and
 * after a taskgroup; a critical region guards a shared sum, and a lock
 * another; long double atomics and an array reduction take libgomp's
 * atomic lock; an ordered loop's ordered regions pass a running sum along;
 * tasks add into a task reduction; the end barrier of the
 * region orders the writes before the sum the encountering thread takes.  Archer must report
 * nothing; it does only if libpompt reports these regions and barriers from
 * libgomp's entries (doc/ompt-mapping.md, "Code pomp-cc did not compile").
 *
 *   archer_opaque R      (R repetitions)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

/* The regions of these functions are not instrumented: the range
 * covers their definitions (a call inside a noinstrument range still runs
 * the instrumented code it calls). */
#ifdef _POMP
#pragma pomp noinstrument
#endif
/* Every thread writes its share, then, after the barrier, reads all; one
 * thread has tasks (run by any thread) double the values and reads them
 * after its taskwait, then add one, read after their taskgroup. */
static long share_then_sum(long *a) {
  long total = 0, doubled = 0;
#pragma omp parallel reduction(+ : total)
  {
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = me; i < N; i += n)
      a[i] = i;
#pragma omp barrier
    for (int i = 0; i < N; i++)
      total += a[i];
#pragma omp barrier
#pragma omp single
    {
      for (int i = 0; i < N; i += 8) {
#pragma omp task firstprivate(i) shared(a)
        for (int j = i; j < i + 8; j++)
          a[j] *= 2;
      }
#pragma omp taskwait
      for (int i = 0; i < N; i++)
        doubled += a[i];
#pragma omp taskgroup
      {
        for (int i = 0; i < N; i += 8) {
#pragma omp task firstprivate(i) shared(a)
          for (int j = i; j < i + 8; j++)
            a[j] += 1;
        }
      }
      for (int i = 0; i < N; i++)
        doubled += a[i];
    }
  }
  return doubled == 2L * N * (N - 1) + N ? total : -1;
}

/* A dynamic loop's writes, read by every thread after the loop's implicit
 * barrier (GCC's GOMP_loop_end), and each thread's sum added under a
 * critical region (GOMP_critical_start / _end). */
static long loop_then_critical(long *a) {
  long total = 0;
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 5)
    for (int i = 0; i < N; i++)
      a[i] = 2 * i;
    long mine = 0;
    for (int i = 0; i < N; i++)
      mine += a[i];
#pragma omp critical
    total += mine;
  }
  return total;
}

/* An ordered loop whose ordered regions (GOMP_ordered_start / _end) pass a
 * running sum from each iteration to the next. */
static long ordered_chain(void) {
  long running = 0, sums[N];
#pragma omp parallel for ordered schedule(dynamic, 1)
  for (int i = 0; i < N; i++) {
#pragma omp ordered
    {
      running += i;
      sums[i] = running;
    }
  }
  return sums[N - 1];
}

/* A sum guarded by a lock (the lock routines, which libpompt defines
 * itself), a long double updated by atomic constructs (GOMP_atomic_start /
 * _end: it has no atomic instruction) and an array reduction (combined
 * under the same lock of libgomp's). */
static long locks_and_atomics(void) {
  omp_lock_t lock;
  long total = 0, parts[4] = {0, 0, 0, 0};
  long double weight = 0;
  omp_init_lock(&lock);
#pragma omp parallel reduction(+ : parts[:4])
  {
    for (int i = 0; i < N; i++) {
      omp_set_lock(&lock);
      total += i;
      omp_unset_lock(&lock);
#pragma omp atomic
      weight += 1.0L;
      parts[i % 4] += 1;
    }
  }
  omp_destroy_lock(&lock);
  long threads = (parts[0] + parts[1] + parts[2] + parts[3]) / N;
  return total == threads * N * (N - 1) / 2 && weight == (long double)threads * N
             ? 0
             : 1;
}
/* A task reduction (GOMP_parallel_reductions): tasks one thread creates
 * add into it, each reading what its creator wrote before creating it;
 * the region combines the contributions at its end. */
static long task_reduction(const long *a) {
  long s = 0;
#pragma omp parallel reduction(task, + : s)
#pragma omp single
  for (int i = 0; i < N; i += 8) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
    s += a[i];
  }
  return s;
}
#ifdef _POMP
#pragma pomp instrument
#endif

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  long bad = 0;
  for (int r = 0; r < reps; r++) {
    long a[N] = {0}, b[N] = {0}, c[N] = {0}, t1 = 0, t2, t3, last = 0;
#pragma omp target map(tofrom : a, t1, last)
    {
#pragma omp parallel
      {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        for (int i = me; i < N; i += n)
          a[i] = i + r;
#pragma omp barrier
#pragma omp single
        for (int i = 0; i < N; i++)
          t1 += a[i];
      }
      last = a[N - 1]; /* after the region's end barrier */
    }
    t2 = share_then_sum(b);
    t3 = loop_then_critical(c);
    bad += ordered_chain() != (long)N * (N - 1) / 2;
    bad += locks_and_atomics();
    long d[N];
    for (int i = 0; i < N; i++)
      d[i] = i + r;
    /* d[0] + d[8] + ... + d[56] */
    bad += task_reduction(d) != 224 + 8 * r;
    bad += t1 != (long)N * (N - 1) / 2 + (long)N * r || last != N - 1 + r;
    bad += t2 % ((long)N * (N - 1) / 2) != 0;
    bad += t3 % ((long)N * (N - 1)) != 0;
  }
  printf("archer_opaque: %s\n", bad ? "wrong sums" : "ok");
  return bad != 0;
}
