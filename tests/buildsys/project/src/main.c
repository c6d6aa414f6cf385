/* main.c -- the program: a team of its own, then the static library, the
 * shared library and the generated source. */
#include "gen_config.h"
#include "shared.h"
#include "stat.h"

int gen_count(void);

int main(void) {
  int team = 0;
#pragma omp parallel num_threads(TEAM)
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  printf("team=%d sum=%ld mean=%.1f gen=%d\n", team, stat_sum(GEN_N),
         shared_mean(GEN_N), gen_count());
  return 0;
}
