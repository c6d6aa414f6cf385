/* A construct without its structured block. */
int main(void) {
  int x = 0;
  {
    x++;
#pragma omp task
  }
  return x;
}
