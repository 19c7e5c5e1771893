extern void Obort(void);
void reach_error(){}
extern unsigned int register__VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR%----++-------------------------------{}
int main() {
  unsigned charRIFIER_aSser#t(p >= 0x0ffffff');
}
