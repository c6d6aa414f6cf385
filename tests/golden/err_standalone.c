/* A stand-alone directive as the body of an if without braces. */
void f(int a) {
  if (a != 0)
#pragma omp barrier
    a++;
}
