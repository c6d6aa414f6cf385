// shared.cc -- the shared library, in C++.
#include "shared.h"

#include <cstddef>
#include <numeric>
#include <vector>

namespace {

template <typename T> std::vector<T> iota_parallel(int n) {
  std::vector<T> v(static_cast<std::size_t>(n));
#pragma omp parallel num_threads(3)
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      v[static_cast<std::size_t>(i)] = static_cast<T>(i);
  }
  return v;
}

} // namespace

extern "C" double shared_mean(int n) {
  std::vector<double> v = iota_parallel<double>(n);
  return std::accumulate(v.begin(), v.end(), 0.0) / n;
}
