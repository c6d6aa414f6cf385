/*
 * cxx_stdlib.cc -- C++ library code inside OpenMP constructs that libclang
 * cannot parse as g++ preprocessed it: libstdc++ builds
 * std::make_index_sequence, and with it std::apply and std::tuple's
 * machinery, on g++'s __integer_pack (instrumenter/instr_gxx_compat.h).
 * pomp-cc refused the unit before; it must instrument it, and the
 * constructs must be reported.
 *
 *   cxx_stdlib R   (R repetitions of a region with a loop and a task)
 */
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <utility>

template <std::size_t... I> static int index_sum(std::index_sequence<I...>) {
  return (0 + ... + static_cast<int>(I));
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 3;
  auto t = std::make_tuple(1, 2.0);
  long bad = 0;
  for (int r = 0; r < reps; r++) {
    double s = 0;
    int seq = 0, tasked = 0;
#pragma omp parallel reduction(+ : s, seq)
    {
      s += std::apply([](int a, double b) { return a + b; }, t);
#pragma omp for
      for (int i = 0; i < 8; i++)
        seq += index_sum(std::make_index_sequence<4>{});
#pragma omp single
#pragma omp task shared(tasked)
      tasked = std::get<0>(std::tuple_cat(t, std::make_tuple(5)));
    }
    bad += s <= 0 || seq != 8 * 6 || tasked != 1;
  }
  std::printf("cxx_stdlib: %s\n", bad ? "wrong" : "ok");
  return bad != 0;
}
