/* A syntax error inside a construct. */
int main(void) {
  int x = 0;
#pragma omp parallel
  {
    x = (1 + ;
  }
  return x;
}
