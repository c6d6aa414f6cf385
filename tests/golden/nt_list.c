/* A clause with a list where one expression is expected (OpenMP 6.0's
 * num_threads list; gcc 12 rejects it): the clause stays as written, never
 * hoisted into a comma expression. */
int main(void) {
  int n = 0;
#pragma omp parallel num_threads(8, 2) if (1)
  n++;
#pragma omp task final(n > 1, 0)
  n++;
  return n;
}
