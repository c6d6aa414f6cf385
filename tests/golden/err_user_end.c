/* The end of a user region that was not opened. */
int main(void) {
  int x = 0;
#pragma pomp inst begin(a)
  x++;
#pragma pomp inst end(b)
  return x;
}
