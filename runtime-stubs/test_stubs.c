/*
 * test_stubs.c - checks the serial semantics of libpompt-stubs.
 *
 * Compiled WITHOUT an OpenMP flag against the compiler's own <omp.h>
 * (libgomp's with GCC), exactly like a program that pomp-cc links with the
 * stubs, so it also checks that the stubs agree with that header's types.
 * Exit status 0 when every check holds; each failure is printed.
 */
#define _POSIX_C_SOURCE 200809L

#include <omp.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Not declared by every omp.h (libgomp 12 lacks it). */
extern int omp_control_tool(int command, int modifier, void *arg);

static int failures;
static int checks;

#define CHECK(cond)                                                            \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                          \
  } while (0)

static void test_threads(void) {
  omp_set_num_threads(8);
  CHECK(omp_get_num_threads() == 1);
  CHECK(omp_get_max_threads() == 1);
  CHECK(omp_get_thread_num() == 0);
  CHECK(omp_get_num_procs() >= 1);
  CHECK(omp_in_parallel() == 0);
  CHECK(omp_get_thread_limit() >= 1);
  CHECK(omp_get_level() == 0);
  CHECK(omp_get_active_level() == 0);
  CHECK(omp_get_ancestor_thread_num(0) == 0);
  CHECK(omp_get_ancestor_thread_num(1) == -1);
  CHECK(omp_get_ancestor_thread_num(-1) == -1);
  CHECK(omp_get_team_size(0) == 1);
  CHECK(omp_get_team_size(1) == -1);
  CHECK(omp_in_final() == 1);
  CHECK(omp_get_cancellation() == 0);
  CHECK(omp_get_proc_bind() == omp_proc_bind_false);
  CHECK(omp_get_num_places() == 0);
  CHECK(omp_get_place_num() == -1);
  CHECK(omp_get_partition_num_places() == 0);
  CHECK(omp_get_max_task_priority() == 0);
  CHECK(omp_get_num_teams() == 1);
  CHECK(omp_get_team_num() == 0);

  omp_set_dynamic(1);
  CHECK(omp_get_dynamic() == 1);
  omp_set_dynamic(0);
  CHECK(omp_get_dynamic() == 0);

  omp_set_max_active_levels(4);
  CHECK(omp_get_max_active_levels() <= omp_get_supported_active_levels());
  CHECK(omp_get_max_active_levels() >= 0);

  omp_sched_t kind = 0;
  int chunk = -5;
  omp_set_schedule(omp_sched_dynamic, 7);
  omp_get_schedule(&kind, &chunk);
  CHECK(kind == omp_sched_dynamic && chunk == 7);
  omp_set_schedule(omp_sched_guided, 0);
  omp_get_schedule(&kind, &chunk);
  CHECK(kind == omp_sched_guided);

  CHECK(omp_control_tool(1, 0, NULL) == -2); /* omp_control_tool_notool */
  CHECK(omp_pause_resource_all(omp_pause_soft) == 0);
}

static void test_devices(void) {
  CHECK(omp_get_num_devices() == 0);
  CHECK(omp_is_initial_device() == 1);
  CHECK(omp_get_initial_device() == omp_get_num_devices());
  CHECK(omp_get_device_num() == omp_get_initial_device());
  omp_set_default_device(0);
  CHECK(omp_get_default_device() == 0);

  int host = omp_get_initial_device();
  char *dev = omp_target_alloc(64, host);
  CHECK(dev != NULL);
  if (dev != NULL) {
    char src[64];
    for (int i = 0; i < 64; i++)
      src[i] = (char)i;
    CHECK(omp_target_memcpy(dev, src, 60, 4, 0, host, host) == 0);
    CHECK(dev[4] == 0 && dev[63] == 59);
    CHECK(omp_target_is_present(dev, host) != 0);
    omp_target_free(dev, host);
  }

  /* A 2 x 3 block out of a 4 x 5 matrix, at (1,1), into (0,2) of 3 x 6. */
  int m[4][5], d[3][6];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      m[i][j] = 10 * i + j;
  memset(d, 0, sizeof d);
  size_t volume[2] = {2, 3}, doff[2] = {0, 2}, soff[2] = {1, 1};
  size_t ddim[2] = {3, 6}, sdim[2] = {4, 5};
  CHECK(omp_target_memcpy_rect(d, m, sizeof(int), 2, volume, doff, soff, ddim,
                               sdim, host, host) == 0);
  CHECK(d[0][2] == 11 && d[0][4] == 13 && d[1][2] == 21 && d[1][4] == 23);
  CHECK(d[0][1] == 0 && d[0][5] == 0 && d[2][2] == 0);
  CHECK(omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL,
                               host, host) > 0);
}

static void test_locks(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  CHECK(omp_test_lock(&lock) == 1);
  CHECK(omp_test_lock(&lock) == 0); /* set: cannot be taken again */
  omp_unset_lock(&lock);
  omp_set_lock(&lock);
  CHECK(omp_test_lock(&lock) == 0);
  omp_unset_lock(&lock);
  CHECK(omp_test_lock(&lock) == 1);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);

  omp_init_lock_with_hint(&lock, omp_sync_hint_contended);
  omp_set_lock(&lock);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);

  omp_nest_lock_t nest;
  omp_init_nest_lock(&nest);
  CHECK(omp_test_nest_lock(&nest) == 1);
  omp_set_nest_lock(&nest); /* count 2 */
  CHECK(omp_test_nest_lock(&nest) == 3);
  CHECK(omp_test_nest_lock(&nest) == 4);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest); /* free again */
  CHECK(omp_test_nest_lock(&nest) == 1);
  omp_unset_nest_lock(&nest);
  omp_destroy_nest_lock(&nest);

  omp_init_nest_lock_with_hint(&nest, omp_sync_hint_uncontended);
  omp_set_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_destroy_nest_lock(&nest);
}

/* Runs body in a child process; returns its termination signal (0 when it
   exited) and leaves what it wrote to stderr in msg. */
static int run_child(void (*body)(void), char *msg, size_t size) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    alarm(10); /* a hang becomes SIGALRM, never a stuck test */
    body();
    _exit(0);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t n;
  while (len + 1 < size && (n = read(fds[0], msg + len, size - 1 - len)) > 0)
    len += (size_t)n;
  msg[len] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void double_set(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  omp_set_lock(&lock); /* a serial deadlock */
}

static void unset_free_lock(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  omp_unset_lock(&lock);
}

static void test_lock_errors(void) {
  char msg[512];
  int sig = run_child(double_set, msg, sizeof msg);
  CHECK(sig == SIGABRT);
  CHECK(strstr(msg, "deadlock") != NULL);

  sig = run_child(unset_free_lock, msg, sizeof msg);
  CHECK(sig == SIGABRT);
  CHECK(strstr(msg, "omp_unset_lock") != NULL);
}

static void test_wtime(void) {
  double tick = omp_get_wtick();
  CHECK(tick > 0.0 && tick < 0.01);

  double t0 = omp_get_wtime();
  double prev = t0;
  int monotonic = 1;
  for (int i = 0; i < 100000; i++) {
    double t = omp_get_wtime();
    if (t < prev)
      monotonic = 0;
    prev = t;
  }
  CHECK(monotonic);
  struct timespec ts = {0, 20 * 1000 * 1000};
  nanosleep(&ts, NULL);
  double t1 = omp_get_wtime();
  CHECK(t1 - t0 >= 0.019);
  CHECK(t1 - t0 < 5.0);
}

static int aligned_to(const void *p, size_t a) {
  return ((uintptr_t)p & (a - 1)) == 0;
}

static void test_allocators(void) {
  CHECK(omp_get_default_allocator() == omp_default_mem_alloc);

  unsigned char *p = omp_alloc(1000, omp_default_mem_alloc);
  CHECK(p != NULL);
  if (p != NULL) {
    for (int i = 0; i < 1000; i++)
      p[i] = (unsigned char)i;
    p = omp_realloc(p, 4000, omp_null_allocator, omp_null_allocator);
    CHECK(p != NULL);
    int same = 1;
    for (int i = 0; p != NULL && i < 1000; i++)
      if (p[i] != (unsigned char)i)
        same = 0;
    CHECK(same);
    omp_free(p, omp_null_allocator);
  }
  CHECK(omp_alloc(0, omp_null_allocator) == NULL);

  void *a = omp_aligned_alloc(4096, 100, omp_null_allocator);
  CHECK(a != NULL && aligned_to(a, 4096));
  omp_free(a, omp_null_allocator);

  int *z = omp_calloc(256, sizeof(int), omp_null_allocator);
  CHECK(z != NULL);
  int zero = 1;
  for (int i = 0; z != NULL && i < 256; i++)
    if (z[i] != 0)
      zero = 0;
  CHECK(zero);
  omp_free(z, omp_null_allocator);

  /* A 1 KiB pool, 64-byte alignment, failing with NULL when full. */
  omp_alloctrait_t traits[] = {
      {omp_atk_alignment, 64},
      {omp_atk_pool_size, 1024},
      {omp_atk_fallback, omp_atv_null_fb},
  };
  omp_allocator_handle_t pool =
      omp_init_allocator(omp_default_mem_space, 3, traits);
  CHECK(pool != omp_null_allocator);
  void *b1 = omp_alloc(512, pool);
  CHECK(b1 != NULL && aligned_to(b1, 64));
  void *b2 = omp_alloc(600, pool);
  CHECK(b2 == NULL); /* 512 + 600 > 1024 */
  omp_free(b1, pool);
  b2 = omp_alloc(600, pool);
  CHECK(b2 != NULL && aligned_to(b2, 64));

  /* The same pool as default allocator, through omp_null_allocator. */
  omp_set_default_allocator(pool);
  CHECK(omp_get_default_allocator() == pool);
  CHECK(omp_alloc(600, omp_null_allocator) == NULL);
  omp_set_default_allocator(omp_default_mem_alloc);
  omp_free(b2, omp_null_allocator);
  omp_destroy_allocator(pool);

  /* Falling back to default memory when the pool is exhausted. */
  omp_alloctrait_t fb_traits[] = {
      {omp_atk_pool_size, 16},
      {omp_atk_fallback, omp_atv_default_mem_fb},
  };
  omp_allocator_handle_t small =
      omp_init_allocator(omp_default_mem_space, 2, fb_traits);
  CHECK(small != omp_null_allocator);
  void *c = omp_alloc(1000, small);
  CHECK(c != NULL);
  omp_free(c, small);
  omp_destroy_allocator(small);

  /* Invalid traits give no allocator. */
  omp_alloctrait_t bad[] = {{omp_atk_alignment, 48}};
  CHECK(omp_init_allocator(omp_default_mem_space, 1, bad) ==
        omp_null_allocator);
}

static void test_affinity(void) {
  char buf[128];
  omp_set_affinity_format("T%n/%N L%{nesting_level}");
  size_t n = omp_get_affinity_format(buf, sizeof buf);
  CHECK(n == strlen("T%n/%N L%{nesting_level}"));
  CHECK(strcmp(buf, "T%n/%N L%{nesting_level}") == 0);
  n = omp_capture_affinity(buf, sizeof buf, NULL);
  CHECK(strcmp(buf, "T0/1 L0") == 0);
  CHECK(n == 7);
  n = omp_capture_affinity(buf, 3, "%3n|");
  CHECK(n == 4 && strcmp(buf, "  ") == 0);
}

int main(void) {
  test_threads();
  test_devices();
  test_locks();
  test_lock_errors();
  test_wtime();
  test_allocators();
  test_affinity();
  if (failures != 0) {
    fprintf(stderr, "runtime-stubs: %d of %d checks failed\n", failures,
            checks);
    return 1;
  }
  printf("runtime-stubs: all %d checks passed\n", checks);
  return 0;
}
