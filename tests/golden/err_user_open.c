/* A user region that is never closed. */
int main(void) {
  int x = 0;
#pragma pomp inst begin(loop)
  x++;
  return x;
}
