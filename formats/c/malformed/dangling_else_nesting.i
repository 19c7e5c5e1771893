int main(void) {
  int a = 0, b = 0, x = 0;
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  if (a) if (b) {} else {
  x = = 1;
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  }
  return x;
}
