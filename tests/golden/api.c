/* Calls of OpenMP API routines become POMP_Api_* calls, one handle per
 * call site; a user's own definition of a routine (a shim) and calls of
 * it stay, so do routine addresses and calls through pointers. */
#include <omp.h>
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")

/* A shim for runtimes without the routine. */
void omp_init_nest_lock_with_hint(omp_nest_lock_t *l, omp_sync_hint_t h) {
  (void)h;
  omp_init_nest_lock(l);
}

static int (*thread_num)(void) = omp_get_thread_num;

int main(void) {
  omp_lock_t lock;
  omp_nest_lock_t nest;
  int count = 0, nested = 0, procs = 0, inpar = 0, tested = 0;
  omp_init_lock(&lock);
  omp_init_nest_lock_with_hint(&nest, omp_sync_hint_none);
  omp_set_num_threads(3);
  omp_set_dynamic(0);
  procs = omp_get_num_procs() > 0;
  CHECK_LINE();
#pragma omp parallel default(none) shared(lock, nest, count, nested, inpar, tested)
  {
    omp_set_lock(&lock);
    count += omp_get_num_threads() == omp_get_max_threads();
    omp_unset_lock(&lock);
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    nested++;
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
    if (omp_get_thread_num() == 0 && omp_in_parallel())
      inpar = 1;
    while (!omp_test_lock(&lock))
      ;
    tested++;
    omp_unset_lock(&lock);
  }
  CHECK_LINE();
  int fulfilled = 0;
#pragma omp parallel num_threads(2) shared(fulfilled)
#pragma omp single
  {
    omp_event_handle_t ev;
#pragma omp task detach(ev) shared(fulfilled)
    {
      fulfilled = 1;
      omp_fulfill_event(ev);
    }
#pragma omp taskwait
  }
  CHECK_LINE();
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest);
  printf("count=%d nested=%d procs=%d inpar=%d tested=%d dyn=%d tn=%d "
         "fulfilled=%d\n",
         count, nested, procs, inpar, tested, omp_get_dynamic(),
         (*thread_num)(), fulfilled);
  return 0;
}
