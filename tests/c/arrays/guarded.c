// Hand-written: every access is guarded (short-circuit `&&` and `?:`
// evaluate the access only in bounds), the array is written through a
// variable index and read back, and `sizeof` counts its bytes. Safe: the
// only way to make a[i] zero is the write of k - k.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[] = {1, 2, 3, 4};
  char *unused = (char *)a;
  int i = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4 && a[i] == 0) reach_error();
  int x = (i >= 0 && i < 4) ? a[i] : 1;
  if (x == 0) reach_error();
  if (sizeof(a) != 4 * sizeof(int)) reach_error();
  if (k >= 0 && k < 4) {
    a[k] = a[k] + 10;
    if (a[k] < 11 || a[k] > 14) reach_error();
    unused = 0;
  }
  return 0;
}
