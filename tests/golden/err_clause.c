/* A malformed clause. */
int main(void) {
  int x = 0;
#pragma omp parallel num_threads(4
  x++;
  return x;
}
