#!/bin/bash
# A sync replayed from a read_iolog follows the same rule as one of the
# job's fsync=: on an async engine it waits only for the I/O queued and not
# yet submitted, not for the I/O in flight, as fio 3.33's libaio (busy only
# while it holds unsubmitted iocbs). iobench drained the queue before each
# replayed sync: a log of 128 random 4k writes with a sync after every 4th,
# replayed with libaio iodepth=8 direct=1, counted 54 64 41 0 I/Os at depth
# 1 2 4 8 where fio counts 1 2 5 151. The exact counts per bucket
# (depth_counts), and fio's when it runs. Root and a loop device over a sparse file.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 64m 512

python3 - "$loop" >"$tmp/sync.log" <<'PY'
import sys
dev = sys.argv[1]
print("fio version 3 iolog")
print("0 %s add" % dev)
print("0 %s open" % dev)
for i in range(128):
    off = (i * 37 % 128) * 4096
    print("0 %s write %d 4096" % (dev, off))
    if i % 4 == 3 and i != 127:
        print("0 %s sync %d 0" % (dev, off))
print("0 %s close" % dev)
PY

for t in $(tools); do
  got=$("$(cmd "$t")" --output-format=json --name=r --read_iolog="$tmp/sync.log" \
    --ioengine=libaio --iodepth=8 --direct=1 2>/dev/null | depth_counts "$t")
  expect_eq "$t libaio replay, a sync after every 4 writes, iodepth=8" "$got" "1 2 5 151 0 0 0 syncs=31"
done
[ "$fails" -eq 0 ]
