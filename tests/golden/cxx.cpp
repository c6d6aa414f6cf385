// C++: members, templates, lambdas, range-for, namespaces.
#include <cstdio>
#include <vector>
#define CHECK_LINE() static_assert(__builtin_LINE() == __LINE__, "line numbering")

namespace demo {
struct Acc {
  int n = 16;
  std::vector<int> v = std::vector<int>(16, 1);
  int sum() const {
    int s = 0;
#pragma omp parallel for default(none) shared(v) reduction(+: s)
    for (int i = 0; i < n; ++i)
      s += v[static_cast<std::size_t>(i)];
    CHECK_LINE();
    return s;
  }
};

template <typename T> T total(const std::vector<T> &x) {
  T s = T();
#pragma omp parallel
  {
#pragma omp for reduction(+: s)
    for (std::size_t i = 0; i < x.size(); i++)
      s += x[i];
  }
  CHECK_LINE();
  return s;
}
} // namespace demo

int main() {
  demo::Acc a;
  std::vector<double> d(5, 2.0);
  auto count = [&]() {
    int c = 0;
#pragma omp parallel num_threads(2)
#pragma omp critical
    c++;
    return c;
  };
  int hits = 0;
  for (int &x : a.v)
#pragma omp parallel
  {
#pragma omp single
    x++;
  }
  CHECK_LINE();
  for (int x : a.v)
    hits += x;
  std::printf("%d %g %d %d\n", a.sum(), demo::total(d), count() > 0, hits);
  return 0;
}
