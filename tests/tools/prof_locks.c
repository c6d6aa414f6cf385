/*
 * prof_locks.c - locks, nested locks, a test lock and ordered under
 * pompt-prof.  Per thread and repetition (50): lock a then b, released out
 * of order (a first); a nested lock taken twice; a test lock retried until
 * it is taken.  Then an ordered loop of 20 iterations.  check_prof.py
 * ("locks") expects each lock's region to be held 50 * n times, the nested
 * lock counted once per outer acquisition, and 20 ordered regions.
 */
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t a, b;
  omp_nest_lock_t nl;
  omp_init_lock(&a);
  omp_init_lock(&b);
  omp_init_nest_lock(&nl);
  int x = 0, y = 0, z = 0;
  #pragma omp parallel
  {
    for (int r = 0; r < 50; r++) {
      omp_set_lock(&a); /* @lock_a */
      omp_set_lock(&b); /* @lock_b */
      x++;
      omp_unset_lock(&a);
      y++;
      omp_unset_lock(&b);
      omp_set_nest_lock(&nl); /* @nest */
      omp_set_nest_lock(&nl);
      z++;
      omp_unset_nest_lock(&nl);
      omp_unset_nest_lock(&nl);
      while (!omp_test_lock(&a)) /* @test */
        ;
      x++;
      omp_unset_lock(&a);
    }
    #pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 20; i++) {
      #pragma omp ordered /* @ordered */
      z++;
    }
  }
  omp_destroy_lock(&a);
  omp_destroy_lock(&b);
  omp_destroy_nest_lock(&nl);
  printf("x %d y %d z %d\n", x, y, z);
  return 0;
}
