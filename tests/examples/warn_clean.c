/* Instrumented code must not add warnings: an unbraced loop body followed
 * by the closing events (clang's -Wmisleading-indentation). */
int sum_to(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

int main(void) { return sum_to(10) == 45 ? 0 : 1; }
