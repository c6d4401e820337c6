#!/bin/bash
# verify_state_save under ulimit -v: the state (8 bytes a block, 32 MiB for
# size=2g bs=512) was built whole in a growing vector after the run and its
# verify; the vector's doubling threw std::bad_alloc in the worker thread,
# nothing caught it, and std::terminate ended the run (exit 134) with its
# report lost. It is written through a fixed buffer now, and loads again.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# A sanitizer runtime reserves terabytes of address space at start.
if grep -qaE '__asan_init|__tsan_init' "$bin"; then
  echo "skip: ulimit -v does not work under a sanitizer"
  exit 77
fi
truncate -s 2g vf.dat  # sparse: no layout, nothing written but the job's 1 MiB
job=(--name=j --filename=vf.dat --rw=randwrite --bs=512 --size=2g --io_size=1m --verify=crc32c)
(ulimit -v 90000 && exec "$bin" "${job[@]}") >out 2>err
rc=$?
expect_eq "exit code" "$rc" 0
expect_eq "stderr" "$(cat err)" ""
grep -q "note: verify: state saved to local-j-0-verify.state" out ||
  fail "no report or no state saved: $(tail -c 400 out)"
# What was saved is a whole state: a verify_only run takes it.
"$bin" "${job[@]}" --verify_only=1 --verify_state_load=1 >out2 2>err2
expect_eq "verify_only: exit code" "$?" 0
grep -q "note: verify: 0 blocks written, 2048 verified, 0 skipped, 0 failed" out2 ||
  fail "verify_only: $(cat err2) $(grep note out2)"
[ "$fails" -eq 0 ]
