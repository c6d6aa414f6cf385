/* The target family (doc/target.md): map lists of every shape, device and
 * if clauses, nowait with completion tasks, target data around host code,
 * enter/exit data, update, combined target constructs (device code stays
 * as written), host teams and distribute. */
#include <omp.h>
#include <stdio.h>
#define CHECK_LINE() _Static_assert(__builtin_LINE() == __LINE__, "line numbering")
#define N 64

struct vec {
  int n;
  double d[N];
};

#pragma omp declare target
static double twice(double x) { return 2.0 * x; }
#pragma omp end declare target

int main(void) {
  double a[N], b[N], m2[8][8];
  double *p = b;
  struct vec v = {N, {0}};
  int n = N, dev = omp_get_initial_device(), sum = 0, teams_seen = 0;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 0;
  }
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      m2[i][j] = i + j;

#pragma omp target map(to: a[0:n]) map(from: p[:N]) map(tofrom: sum) device(dev)
  {
#pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < N; i++) {
      p[i] = twice(a[i]);
      sum += 1;
    }
  }
  CHECK_LINE();

#pragma omp target data map(always, to: m2[2:4][0:8]) map(alloc: v.d[4:]) if(n > 0)
  {
#pragma omp target update from(v.d[0:8]) to(m2[1][0:8])
#pragma omp parallel num_threads(2) shared(sum)
    {
#pragma omp atomic
      sum += 1;
    }
  }
  CHECK_LINE();

#pragma omp target enter data map(to: a, n) nowait
#pragma omp target teams distribute parallel for map(tofrom: b[0:N]) nowait \
    depend(inout: b[0]) if(target: n > 1000)
  for (int i = 0; i < N; i++)
    b[i] += 1.0;
#pragma omp taskwait
#pragma omp target exit data map(release: a, n) map(delete: v.d[0:2])
  CHECK_LINE();

#pragma omp teams num_teams(3) thread_limit(2) reduction(+: teams_seen)
  {
    teams_seen += 1;
#pragma omp distribute dist_schedule(static, 4)
    for (int i = 0; i < N; i++)
      a[i] += 0.0;
  }
#pragma omp teams distribute num_teams(2) shared(a) firstprivate(n)
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
  CHECK_LINE();
  printf("sum=%d b=%g %g teams=%d a=%g v=%g m2=%g\n", sum, b[1], b[63],
         teams_seen > 0, a[5], v.d[1], m2[3][3]);
  return 0;
}
