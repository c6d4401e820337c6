#!/bin/bash
# IO depths of the I/Os an async engine completes inside its queue call (a
# trim; libaio's sync_file_range): fio 3.33 counts each at the depth in
# flight, itself included (td_io_queue's io_u_mark_depth(td, 1) takes the
# bucket from td->cur_depth), not at depth 1. iobench counted them at 1:
# trimwrite at iodepth=4 on 64 blocks gave 65 2 61 (1=50.8% 2=1.6% 4=47.7%)
# where fio gives 2 4 122, the figures of its rw=write. The exact counts per
# bucket (1 2 4 8 16 32 >=64) from the JSON percentages, and fio's when it
# runs (fio divides by the reads, writes and trims; iobench by all it
# counted, syncs included). An async engine's sync goes out with the
# writes before it in flight, as fio's (libaio waits only for what is not
# submitted yet): iobench drained the queue first, and sync_file_range=
# write:4 (or fsync=4) at iodepth=4 counted 511 512 256 (256 512 511),
# fio 1 2 1276 both. fio's posixaio answers busy for a trim while any I/O
# is in flight, so its queue drains before each: trimwrite at iodepth=4
# counts all 128 at 1 (iobench counted 2 4 122, as libaio). Root and a loop device over a sparse file in
# /var/tmp (trims need a block device for fio).
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 64m 512

counts() {  # TOOL options...: the I/Os in each depth bucket, and the syncs
  local t=$1
  shift
  "$(cmd "$t")" --output-format=json --name=j --filename="$loop" --size=4m --direct=1 "$@" \
    2>/dev/null | depth_counts "$t"
}

for t in $(tools); do
  while read -r want; do
    read -r args
    expect_eq "$t $args" "$(counts "$t" $args)" "$want"
  done <<'LIST'
2 4 122 0 0 0 0 syncs=0
--rw=trimwrite --ioengine=libaio --iodepth=4 --bs=64k
2 4 122 0 0 0 0 syncs=0
--rw=trimwrite --ioengine=io_uring --iodepth=4 --bs=64k
2 4 8 242 0 0 0 syncs=0
--rw=trimwrite --ioengine=io_uring --iodepth=8 --bs=32k
64 0 0 0 0 0 0 syncs=0
--rw=randtrim --ioengine=libaio --iodepth=4 --bs=64k
128 0 0 0 0 0 0 syncs=0
--rw=trimwrite --ioengine=null --iodepth=4 --bs=64k
1 2 1276 0 0 0 0 syncs=255
--rw=write --sync_file_range=write:4 --ioengine=libaio --iodepth=4 --bs=4k
1 2 1276 0 0 0 0 syncs=255
--rw=write --fsync=4 --ioengine=libaio --iodepth=4 --bs=4k
128 0 0 0 0 0 0 syncs=0
--rw=trimwrite --ioengine=posixaio --iodepth=4 --bs=64k
LIST
done
[ "$fails" -eq 0 ]
