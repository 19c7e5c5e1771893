// Hand-written: the loop fills b[j] = 2 * j; b[3] is then 6, so the
// assertion fails (expected false, found by hand).
extern void reach_error(void);
int main(void) {
  unsigned b[5];
  for (int j = 0; j < 5; j++) b[j] = 2 * j;
  if (b[3] == 6) reach_error();
  return 0;
}
