// Instrumented C++ must not add warnings: loop bounds handed to the events
// are converted without C-style casts (-Wold-style-cast).
void fill(int n, int *a) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = i;
}

int main() {
  int a[8];
  fill(8, a);
  return a[7] == 7 ? 0 : 1;
}
