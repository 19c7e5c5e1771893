// Hand-written: a[4] is read when i == 4, which the guard lets through.
// That is undefined behaviour (C11 6.5.6p8), where the execution ends (as
// SV-COMP reads it): no other element is 0, so the program is correct.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i <= 4) {
    if (a[i] == 0) reach_error();
  }
  return 0;
}
