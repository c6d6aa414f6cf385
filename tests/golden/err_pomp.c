/* A malformed #pragma pomp line. */
int main(void) {
  int x = 0;
#pragma pomp inst begin
  x++;
  return x;
}
