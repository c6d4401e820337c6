#!/bin/bash
# nowait=1 buffered writes to a block device: the kernel takes RWF_NOWAIT
# on a block device with O_DIRECT only, and fails each buffered write with
# EOPNOTSUPP. The error said "this file system has no non-blocking write
# path" of /dev/loopN; it names the block device, and direct=1 as the way
# that has one. Root and a loop device over a sparse file in /var/tmp.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 16m 4096

"$bin" --name=u --ioengine=pvsync2 --size=64k --bs=4k --filename="$loop" --nowait=1 --rw=write \
  --output-format=terse >out.txt 2>err.txt
rc=$?
msg=$(cat err.txt)
if grep -q "Operation not supported" err.txt; then
  expect_eq "exit" "$rc" 1
  grep -qF "nowait=1 at <cmdline>: this block device has no non-blocking buffered write path (it has one with direct=1)" err.txt ||
    fail "stderr '$msg'"
  grep -q "file system" err.txt && fail "blames a file system: '$msg'"
else
  echo "note: this kernel took buffered RWF_NOWAIT writes to $loop (exit $rc): nothing to check"
fi
# direct=1 has the non-blocking path: no such error.
"$bin" --name=u --ioengine=pvsync2 --size=64k --bs=4k --filename="$loop" --nowait=1 --rw=write \
  --direct=1 --output-format=terse >out.txt 2>err.txt
grep -q "Operation not supported" err.txt && fail "direct=1: $(cat err.txt)"
[ "$fails" -eq 0 ]
