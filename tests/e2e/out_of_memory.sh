#!/bin/bash
# Out of memory is no usage error and no bug: 8000 clones under a 400 MB
# address-space limit ended with "iobench: internal error: std::bad_alloc"
# and exit 2 (bad usage, nothing ran). It says what happened and what to
# reduce, with exit 1, a failed run's code (fio's too).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# A sanitizer runtime reserves terabytes of address space at start.
if grep -qaE '__asan_init|__tsan_init' "$bin"; then
  echo "skip: ulimit -v does not work under a sanitizer"
  exit 77
fi
(ulimit -v 400000 && exec "$bin" --name=a --ioengine=null --size=4k --numjobs=8000 \
  --group_reporting --minimal) >out 2>err
expect_eq "exit code" "$?" 1
grep -q "iobench: out of memory: .*reduce numjobs" err || fail "stderr: $(head -c 400 err)"
grep -q "internal error" err && fail "still an internal error: $(head -c 400 err)"
[ "$fails" -eq 0 ]
