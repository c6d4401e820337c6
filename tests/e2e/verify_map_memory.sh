#!/bin/bash
# A verify map that does not fit under ulimit -v (8 bytes a block: 32 MiB
# for size=2g bs=512) said only "job 'j': setup: std::bad_alloc", exit 2.
# It is refused before the run with the sizes (the check before the run
# counts the verify maps, buffers and thread stacks against RLIMIT_AS), or,
# past that check, by the setup naming the verify map and what to change.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

if grep -qaE '__asan_init|__tsan_init' "$bin"; then
  echo "skip: ulimit -v does not work under a sanitizer"
  exit 77
fi
truncate -s 2g vf.dat
job=(--name=j --filename=vf.dat --rw=randwrite --bs=512 --size=2g --io_size=1m --verify=crc32c)
(ulimit -v 50000 && exec "$bin" "${job[@]}") >out 2>err
expect_eq "exit code" "$?" 2
grep -q "bad_alloc" err && fail "still std::bad_alloc: $(cat err)"
grep -qE "verify maps? .*32 MiB" err || fail "the verify map's size is not named: $(cat err)"
grep -q "raise verify_interval (or bs), shrink size" err || fail "what to change: $(cat err)"
grep -q "ulimit -v" err || fail "the limit is not named: $(cat err)"
(ulimit -v 50000 && exec "$bin" "${job[@]}" --bs=64k) >out 2>err
expect_eq "bs=64k: exit code" "$?" 0
[ "$fails" -eq 0 ]
