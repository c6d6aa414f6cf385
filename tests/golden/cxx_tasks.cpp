// C++: tasks in templates (one instrumentation, every instantiation),
// lambdas, members, namespaces, try blocks, range-for, API calls with
// dependent arguments, a member function named like an OpenMP routine.
#include <omp.h>
#include <cstdio>
#include <stdexcept>
#include <vector>
#define CHECK_LINE() static_assert(__builtin_LINE() == __LINE__, "line numbering")

namespace work {
struct Clock {
  int omp_get_thread_num() const { return 42; } // a member, not the routine
};

template <typename T> T sum_tasks(const std::vector<T> &v) {
  T s = T();
#pragma omp parallel num_threads(2) shared(s)
#pragma omp single
  for (std::size_t i = 0; i < v.size(); i++) {
#pragma omp task firstprivate(i) shared(s, v) depend(in: v.data()[i])
    {
#pragma omp atomic
      s += v[i];
    }
  }
  CHECK_LINE();
  return s;
}

template <typename L> void locked(L *lock, int &n) {
  omp_set_lock(lock);
  n++;
  omp_unset_lock(lock);
}

class Grid {
public:
  explicit Grid(int n) : cells(static_cast<std::size_t>(n), 1) {}
  long total() const;

private:
  std::vector<int> cells;
};

long Grid::total() const {
  long t = 0;
#pragma omp parallel for reduction(+: t) num_threads(2)
  for (const int &c : cells)
    t += c;
  return t;
}
} // namespace work

int main() {
  std::vector<int> vi(10, 2);
  std::vector<double> vd(4, 0.5);
  omp_lock_t lock;
  omp_init_lock(&lock);
  int n = 0, caught = 0;
  work::Clock clk;
  auto body = [&](int k) {
#pragma omp taskgroup
    {
#pragma omp task shared(n, lock)
      work::locked(&lock, n);
    }
    return k + clk.omp_get_thread_num();
  };
  try {
#pragma omp parallel num_threads(2) shared(caught)
    {
#pragma omp master
      {
        try {
          throw std::runtime_error("inside");
        } catch (const std::exception &) {
          caught++;
        }
      }
    }
    CHECK_LINE();
    if (caught != 1)
      throw std::logic_error("not caught");
  } catch (...) {
    caught = -1;
  }
  int r = body(1);
  omp_destroy_lock(&lock);
  std::printf("%d %g %ld %d %d %d\n", work::sum_tasks(vi), work::sum_tasks(vd),
              work::Grid(7).total(), n, r, caught);
  return 0;
}
