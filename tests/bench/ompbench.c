/*
 * ompbench.c -- the cost of OpenMP constructs, one measurement per construct.
 *
 *   ompbench [-s SAMPLES] [-t TARGET_MS] [-d DELAY_US] [-r REPS]
 *            [CONSTRUCT...]
 *
 * The same source is built several ways (plain gcc -fopenmp, pomp-cc with
 * and without a tool, clang with libomp with and without a tool) and
 * run_bench.py compares the builds; see doc/performance.md.
 *
 * Method.  A little work, a delay loop calibrated to take DELAY_US, is
 * executed REPS times inside (or around) the construct under test; the same
 * work executed REPS times by one thread without any construct is the
 * reference.  The overhead of one execution of the construct is
 *
 *     (test time - reference time) / REPS
 *
 * REPS is chosen per construct so that one test takes about TARGET_MS, or
 * given with -r (then nothing is calibrated: run_bench.py's instruction
 * counts run a construct a fixed number of times, and with -d 0 the delay
 * loop is empty).
 * Each construct is measured SAMPLES times, test and reference alternating;
 * the overhead printed is the fastest test minus the fastest reference
 * (on a shared machine, other load only ever adds time, so the minimum is
 * the stable estimate); the medians are printed too.  What one "execution"
 * is, per construct (n = the team size):
 *
 *   parallel      REPS x { parallel { delay } }
 *   for           parallel { REPS x { for (i < n) delay } }
 *   parallel_for  REPS x { parallel for (i < n) delay }
 *   barrier       parallel { REPS x { delay; barrier } }
 *   single        parallel { REPS x { single { delay } } }
 *   critical      parallel { REPS/n x { critical { delay } } }, serialised,
 *                 so REPS critical sections in all
 *   lock          as critical, with omp_set_lock / omp_unset_lock
 *   atomic        parallel { REPS x { delay; atomic update } }
 *   reduction     REPS x { parallel reduction(+) { delay; add } }
 *   master        parallel { REPS x { master { delay } } }
 *   sections      parallel { REPS x { sections { n sections of delay } } }
 *   task          parallel { REPS/n x { task { delay } } }: per task created
 *                 and run, as seen by one thread of the team
 *   taskwait      parallel { REPS x { task { delay }; taskwait } }
 *
 * Output, one line per construct:
 *   bench NAME overhead_us O test_us T ref_us R median_overhead_us M
 *         reps N threads P
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long delay_len = 1;
static double delay_sink;
static double shared_sum;
static omp_lock_t bench_lock;

/* The work inside each construct: floating-point adds that the compiler
 * cannot fold. */
__attribute__((noinline)) static void delay(long len) {
  double a = 0.0;
  for (long i = 0; i < len; i++)
    a += (double)i;
  if (a < 0.0)
    delay_sink = a;
}

static void reference(long reps) {
  for (long j = 0; j < reps; j++)
    delay(delay_len);
}

static void test_parallel(long reps) {
  for (long j = 0; j < reps; j++) {
#pragma omp parallel
    {
      delay(delay_len);
    }
  }
}

static void test_for(long reps) {
#pragma omp parallel
  {
    int n = omp_get_num_threads();
    for (long j = 0; j < reps; j++) {
#pragma omp for schedule(static)
      for (int i = 0; i < n; i++) {
        delay(delay_len);
      }
    }
  }
}

static void test_parallel_for(long reps) {
  int n = omp_get_max_threads();
  for (long j = 0; j < reps; j++) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
      delay(delay_len);
    }
  }
}

static void test_barrier(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
      delay(delay_len);
#pragma omp barrier
    }
  }
}

static void test_single(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
#pragma omp single
      {
        delay(delay_len);
      }
    }
  }
}

static void test_critical(long reps) {
#pragma omp parallel
  {
    long mine = reps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
#pragma omp critical
      {
        delay(delay_len);
      }
    }
  }
}

static void test_lock(long reps) {
#pragma omp parallel
  {
    long mine = reps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
      omp_set_lock(&bench_lock);
      delay(delay_len);
      omp_unset_lock(&bench_lock);
    }
  }
}

static void test_atomic(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
      delay(delay_len);
#pragma omp atomic
      shared_sum += 1.0;
    }
  }
}

static void test_reduction(long reps) {
  double sum = 0.0;
  for (long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+ : sum)
    {
      delay(delay_len);
      sum += 1.0;
    }
  }
  shared_sum += sum;
}

static void test_master(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
#pragma omp master
      {
        delay(delay_len);
      }
    }
  }
}

static void test_sections(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
#pragma omp sections
      {
#pragma omp section
        {
          delay(delay_len);
        }
#pragma omp section
        {
          delay(delay_len);
        }
      }
    }
  }
}

static void test_task(long reps) {
#pragma omp parallel
  {
    long mine = reps / omp_get_num_threads();
    for (long j = 0; j < mine; j++) {
#pragma omp task
      {
        delay(delay_len);
      }
    }
  }
}

/* The common shape of a task program: one thread creates every task, the
 * team runs them (tasks travel between threads). */
static void test_task_single(long reps) {
#pragma omp parallel
  {
#pragma omp single
    for (long j = 0; j < reps; j++) {
#pragma omp task
      {
        delay(delay_len);
      }
    }
  }
}

static void test_taskwait(long reps) {
#pragma omp parallel
  {
    for (long j = 0; j < reps; j++) {
#pragma omp task
      {
        delay(delay_len);
      }
#pragma omp taskwait
    }
  }
}

/* How many delays of the reference one execution of the construct stands
 * for, as seen by the slowest thread. */
enum ref_kind { REF_ONE, REF_PER_THREAD, REF_SECTIONS };

static const struct construct {
  const char *name;
  void (*run)(long reps);
  enum ref_kind ref;
} constructs[] = {
    {"parallel", test_parallel, REF_ONE},
    {"for", test_for, REF_ONE},
    {"parallel_for", test_parallel_for, REF_ONE},
    {"barrier", test_barrier, REF_ONE},
    {"single", test_single, REF_ONE},
    {"critical", test_critical, REF_ONE},
    {"lock", test_lock, REF_ONE},
    {"atomic", test_atomic, REF_ONE},
    {"reduction", test_reduction, REF_ONE},
    {"master", test_master, REF_ONE},
    {"sections", test_sections, REF_SECTIONS},
    {"task", test_task, REF_PER_THREAD},
    {"task_single", test_task_single, REF_PER_THREAD},
    {"taskwait", test_taskwait, REF_ONE},
};
#define N_CONSTRUCTS (sizeof constructs / sizeof constructs[0])

static double seconds(void (*run)(long), long reps) {
  double t0 = omp_get_wtime();
  run(reps);
  return omp_get_wtime() - t0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Delay iterations that take about delay_us. */
static long calibrate_delay(double delay_us) {
  long len = 1000;
  double t;
  for (;;) {
    t = seconds(delay, len);
    if (t > 0.02)
      break;
    len *= 2;
  }
  double best = t;
  for (int i = 0; i < 4; i++) {
    t = seconds(delay, len);
    if (t < best)
      best = t;
  }
  long want = (long)((double)len * delay_us * 1e-6 / best);
  return want > 0 ? want : 1;
}

static void measure(const struct construct *c, int samples, double target_s,
                    int threads, long fixed_reps) {
  long reps = fixed_reps > 0 ? fixed_reps : 8;
  /* Grow REPS until one test takes a quarter of the target, then scale;
   * each step takes the fastest of three timings, so that one disturbance
   * of a shared machine does not shrink REPS. */
  for (; fixed_reps <= 0;) {
    double t = seconds(c->run, reps);
    for (int k = 0; k < 2; k++) {
      double u = seconds(c->run, reps);
      if (u < t)
        t = u;
    }
    if (t >= target_s / 4 || reps > (1L << 28)) {
      if (t > 0)
        reps = (long)((double)reps * target_s / t) + 1;
      break;
    }
    reps *= 2;
  }
  if (reps < 64L * threads && fixed_reps <= 0)
    reps = 64L * threads;
  long ref_reps = reps;
  if (c->ref == REF_PER_THREAD)
    ref_reps = reps / threads;
  else if (c->ref == REF_SECTIONS)
    ref_reps = reps * ((2 + threads - 1) / threads);
  double *over = malloc(sizeof(double) * (size_t)samples * 3);
  if (!over) {
    perror("malloc");
    exit(1);
  }
  double *test = over + samples, *ref = over + 2 * samples;
  for (int s = 0; s < samples; s++) {
    double r = seconds(reference, ref_reps);
    double t = seconds(c->run, reps);
    double per = c->ref == REF_PER_THREAD ? (double)(reps / threads)
                                          : (double)reps;
    test[s] = t / per * 1e6;
    ref[s] = r / per * 1e6;
    over[s] = test[s] - ref[s];
  }
  double m = median(over, samples);
  double t = test[0], r = ref[0];
  for (int s = 1; s < samples; s++) {
    if (test[s] < t)
      t = test[s];
    if (ref[s] < r)
      r = ref[s];
  }
  printf("bench %s overhead_us %.4f test_us %.4f ref_us %.4f "
         "median_overhead_us %.4f reps %ld threads %d\n",
         c->name, t - r, t, r, m, reps, threads);
  fflush(stdout);
  free(over);
}

static void usage(void) {
  fprintf(stderr,
          "usage: ompbench [-s SAMPLES] [-t TARGET_MS] [-d DELAY_US] "
          "[-r REPS] [CONSTRUCT...]\nconstructs:");
  for (size_t i = 0; i < N_CONSTRUCTS; i++)
    fprintf(stderr, " %s", constructs[i].name);
  fprintf(stderr, "\n");
  exit(2);
}

int main(int argc, char **argv) {
  int samples = 9;
  double target_ms = 20.0, delay_us = 0.1;
  long fixed_reps = 0;
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (first + 1 >= argc)
      usage();
    if (!strcmp(argv[first], "-s"))
      samples = atoi(argv[++first]);
    else if (!strcmp(argv[first], "-t"))
      target_ms = atof(argv[++first]);
    else if (!strcmp(argv[first], "-d"))
      delay_us = atof(argv[++first]);
    else if (!strcmp(argv[first], "-r"))
      fixed_reps = atol(argv[++first]);
    else
      usage();
  }
  if (samples < 1 || target_ms <= 0 || delay_us < 0 || fixed_reps < 0)
    usage();
  omp_init_lock(&bench_lock);
  int threads = omp_get_max_threads();
  test_parallel(10); /* start the team */
  delay_len = delay_us > 0 ? calibrate_delay(delay_us) : 0;
  printf("# ompbench threads %d delay_us %.3f delay_len %ld samples %d "
         "target_ms %.1f\n",
         threads, delay_us, delay_len, samples, target_ms);
  for (size_t i = 0; i < N_CONSTRUCTS; i++) {
    int wanted = first >= argc;
    for (int a = first; a < argc && !wanted; a++)
      wanted = !strcmp(argv[a], constructs[i].name);
    if (wanted)
      measure(&constructs[i], samples, target_ms * 1e-3, threads,
              fixed_reps);
  }
  omp_destroy_lock(&bench_lock);
  return delay_sink < 0 && shared_sum < 0;
}
