// Written for invar's tests: true over mathematical integers, false on
// machine integers (x = UINT_MAX wraps to 0). The integer relaxation must
// not decide it.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int y = 0;
  while (y < 3) {
    y++;
    if (x > 0) {
      x = x + 1;
      if (x == 0) reach_error();
    }
  }
  return 0;
}
