#!/bin/bash
# Two jobs share one file (filename=) on a 2 MiB tmpfs (root: mount), one
# with size=1m, one with size=4m, reading it (so it is laid out with data).
# fio 3.33 lays the file out job by job: the 1m job runs on it, the 4m job
# fails alone ("ENOSPC on laying out file", exit 1), in either order.
# iobench lays a shared file out once, to the largest size: when that fails
# it now lays it out to the next smaller size a job needs, the jobs that fit
# run, and the others fail naming the job, the option and what could be laid
# out. It used to fail both jobs and leave no file. A write job needs no
# data laid out: both run and the 4m one fails with ENOSPC on its write, as
# in fio (unchanged).
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: mounting a small tmpfs needs root"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-shared-layout.XXXXXX)
mnt="$work/small"
cleanup() {
  mountpoint -q "$mnt" && umount "$mnt"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$mnt" && mount -t tmpfs -o size=2m tmpfs "$mnt" || { echo "skip: mount -t tmpfs failed"; exit 77; }
. "$2/tests/e2e/check.bash"

jobfile() {  # rw, first size, second size
  cat >"$work/two.fio" <<EOF
[global]
filename=$mnt/shared
rw=$1
bs=4k
ioengine=psync

[a$2]
size=$2

[b$3]
size=$3
EOF
}

for order in "1m 4m" "4m 1m"; do
  set -- $order
  rm -f "$mnt"/*
  jobfile read "$1" "$2"
  "$bin" "$work/two.fio" --output-format=normal >"$work/out" 2>"$work/err"
  expect_eq "read $order: exit" $? 1
  big=$([ "$1" = 4m ] && echo a4m || echo b4m)
  small=$([ "$1" = 1m ] && echo a1m || echo b1m)
  expect_eq "read $order: the 1m job ran" \
    "$(grep -c "^$small: (groupid=0, jobs=1): err= 0" "$work/out")" 1
  grep -q "READ: .*io=1024KiB" "$work/out" || fail "read $order: no 1 MiB read: $(grep READ: "$work/out")"
  grep -q "job '$big': err=28 (lay out $mnt/shared: No space left on device; size=4m at .*two.fio:[0-9]* needs 4MiB of it, 1MiB could be laid out (job '$small' runs on that))" \
    "$work/err" || fail "read $order: stderr: $(cat "$work/err")"
  grep -q "job '$small'" "$work/err" && grep -q "^iobench: job '$small'" "$work/err" &&
    fail "read $order: the 1m job failed too"
  expect_eq "read $order: file size" "$(stat -c %s "$mnt/shared" 2>/dev/null)" 1048576
done

rm -f "$mnt"/*
jobfile write 1m 4m
"$bin" "$work/two.fio" --output-format=normal >"$work/out" 2>"$work/err"
expect_eq "write: exit" $? 1
grep -q "^a1m: (groupid=0, jobs=1): err= 0" "$work/out" || fail "write: the 1m job failed"
grep -q "job 'b4m': err=28 (write $mnt/shared offset=2097152" "$work/err" ||
  fail "write: stderr: $(cat "$work/err")"
[ "$fails" -eq 0 ]
