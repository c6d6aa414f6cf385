/* A construct in a user header. */
static inline int count_threads(void) {
  int n = 0;
#pragma omp parallel
  {
#pragma omp atomic
    n++;
  }
  return n;
}
