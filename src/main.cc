// STUB: the CLI arrives with the foundation work.
#include <cstdio>
int main() {
  std::puts("iobench " IOBENCH_VERSION);
  return 0;
}
