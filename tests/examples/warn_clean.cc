// Instrumented C++ must not add warnings: loop bounds handed to the events
// are converted without C-style casts (-Wold-style-cast).
void fill(int n, int *a) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = i;
}

// And the inline events of pomp.h (critical, master, atomic, handed
// tasks), compiled into the unit: clang++ warned of their C-style casts.
int synced() {
  int a = 0;
#pragma omp parallel shared(a)
  {
#pragma omp critical(synced)
    a++;
#pragma omp master
    a++;
#pragma omp atomic
    a++;
#pragma omp single
    for (int i = 0; i < 3; i++) {
#pragma omp task firstprivate(i) shared(a)
      {
#pragma omp atomic
        a += i;
      }
    }
  }
  return a;
}

int main() {
  int a[8];
  fill(8, a);
  return a[7] == 7 && synced() > 0 ? 0 : 1;
}
