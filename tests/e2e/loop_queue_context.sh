#!/bin/bash
# A loop device is request-based (blk-mq): a job's requests are queued by
# its own scheduler and nr_requests before the disk under its backing file
# sees any. The context header gave that disk's (vda's mq-deadline, 256,
# physical block 4096) for /dev/loopN; it now gives the loop device's own
# queue, set here to a scheduler the disk below does not use (root only).
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup,
# no loop device, or no second scheduler to set).
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop devices)"; exit 77; }
command -v losetup >/dev/null || { echo "skip: needs losetup"; exit 77; }
img=$(mktemp /var/tmp/iobench-loopq.XXXXXX)
loop=""
trap '[ -n "$loop" ] && losetup -d "$loop"; rm -f "$img"; cd /; rm -rf "$tmp"' EXIT
truncate -s 16m "$img"
loop=$(losetup -f --show "$img" 2>/dev/null) || { loop=""; echo "skip: no loop device"; exit 77; }
q=/sys/block/${loop#/dev/}/queue
# The disk under the image: the scheduler the header used to show.
below=$(df --output=source "$img" | tail -1)
below_sched=""
if [ -b "$below" ]; then
  d=$(lsblk -no pkname "$below" 2>/dev/null | head -1)
  [ -n "$d" ] || d=$(basename "$(readlink -f "$below")")
  below_sched=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$d/queue/scheduler" 2>/dev/null)
fi
want=""
for s in $(tr -d '[]' <"$q/scheduler"); do
  [ "$s" != "$below_sched" ] && echo "$s" >"$q/scheduler" 2>/dev/null && { want=$s; break; }
done
[ -n "$want" ] || { echo "skip: no scheduler other than '$below_sched' to set on $loop"; exit 77; }
nr=$(cat "$q/nr_requests")
pbs=$(cat "$q/physical_block_size")
"$bin" --name=l --filename="$loop" --rw=read --size=1m --ioengine=psync >out.txt 2>err.txt
expect_eq "exit" "$?" 0
line=$(grep -m1 "^target $loop:" out.txt)
expect_eq "scheduler" "$(grep -o 'scheduler=[^,]*' <<<"$line")" "scheduler=$want"
expect_eq "nr_requests" "$(grep -o 'nr_requests=[^,]*' <<<"$line")" "nr_requests=$nr"
expect_eq "physical block size" "$(grep -o 'block_size=[0-9]*/[0-9]*' <<<"$line" | cut -d/ -f2)" "$pbs"
[ "$fails" -eq 0 ]
