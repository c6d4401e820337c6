#!/bin/bash
# A set-up error of one job (its file's stat fails with ENOTDIR, ELOOP or
# ENAMETOOLONG; its layout runs out of space)
# fails that job alone, as fio: err=N, no I/O, listed in the report, the
# other jobs of its group run, exit 1. iobench stopped the whole group and
# reported the others as clean runs of 0 bytes with err=0. The message names
# the option and its place.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
head -c 16384 /dev/urandom >f
check_json() {  # FILE PYTHON-ASSERTS
  python3 - "$1" <<PY || fail "$3: JSON: $(head -c 400 "$1")"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
$2
PY
}
cat >job.fio <<'JOB'
[global]
ioengine=psync
bs=4k
[a]
rw=read
filename=f
[b]
rw=read
size=16k
filename=f/x
JOB
"$bin" --output-format=json job.fio >out.json 2>err.txt
expect_eq "ENOTDIR: exit" "$?" 1
check_json out.json '
assert jobs["a"]["read"]["io_bytes"] == 16384 and jobs["a"]["error"] == 0, jobs["a"]["read"]
assert jobs["b"]["read"]["io_bytes"] == 0 and jobs["b"]["error"] == 20, jobs["b"]["error"]' ENOTDIR
grep -qx "iobench: job 'b': err=20 (filename=f/x at job.fio:10: stat f/x: Not a directory)" err.txt ||
  fail "ENOTDIR: stderr: $(cat err.txt)"
"$bin" job.fio >out.txt 2>/dev/null
grep -q "^a: (groupid=0, jobs=1): err= 0" out.txt || fail "normal report: no block for a"
grep -q "READ: .*io=16.0KiB" out.txt || fail "normal report: no group line for a's 16 KiB"
# The failed job keeps its place in the job order (fio's; scripts index the
# JSON's jobs): written first, it is listed first (it came after a).
"$bin" --output-format=terse --name=b --rw=read --size=16k --filename=f/x --name=a --rw=read \
  --filename=f 2>/dev/null | cut -d';' -f3,5 >order.txt
expect_eq "a failed job keeps its place (terse: name;err)" "$(tr '\n' ' ' <order.txt)" "b;20 a;0 "
# Interim reports (--status-interval) list the failed job too, in its
# place and with its error, as fio's do (they left it out, so the job
# count changed in the final report).
"$bin" --output-format=json --status-interval=1 --ioengine=null --rw=read --size=64m \
  --time_based --runtime=2 --name=a --name=b --ioengine=psync --filename=f/x --name=c \
  >interim.json 2>/dev/null
expect_interim "interim reports" interim.json "a:0 b:20 c:0"
# ENOTDIR in one numjobs clone's file: that clone alone (fio's too).
touch d1 && mkdir d0
"$bin" --output-format=terse --name=x --filename_format='d$jobnum/x' --numjobs=2 --rw=read \
  --size=16k 2>/dev/null | cut -d';' -f3,5,6 >nd.txt
expect_eq "ENOTDIR in clone 1 only: name;err;KiB" "$(tr '\n' ' ' <nd.txt)" "x;0;16 x;20;0 "
# ELOOP and ENAMETOOLONG, the same way.
ln -s loop loop
long=$(printf 'n%.0s' $(seq 300))
"$bin" --output-format=json --name=a --rw=read --filename=f --name=b --rw=read --size=16k \
  --filename=loop/x --name=c --rw=read --size=16k --filename="$long" >out2.json 2>err2.txt
expect_eq "ELOOP, ENAMETOOLONG: exit" "$?" 1
check_json out2.json '
assert jobs["a"]["read"]["io_bytes"] == 16384 and jobs["a"]["error"] == 0, jobs["a"]["read"]
assert jobs["b"]["error"] == 40 and jobs["b"]["read"]["io_bytes"] == 0, jobs["b"]["error"]
assert jobs["c"]["error"] == 36 and jobs["c"]["read"]["io_bytes"] == 0, jobs["c"]["error"]' ELOOP
# Out of space while laying out a later job: the earlier ones run (fio reads
# 128k and 384k), the third fails with ENOSPC and leaves no half-laid file.
if [ "$(id -u)" -eq 0 ] && mkdir small && mount -t tmpfs -o size=1m tmpfs small 2>/dev/null; then
  trap 'cd /; umount "$tmp/small"; rm -rf "$tmp"' EXIT
  "$bin" --output-format=json --directory=small --rw=read --bs=4k --name=j1 --size=128k \
    --name=j2 --size=384k --name=j3 --size=768k >out3.json 2>err3.txt
  expect_eq "ENOSPC: exit" "$?" 1
  check_json out3.json '
assert jobs["j1"]["read"]["io_bytes"] == 131072 and jobs["j1"]["error"] == 0, jobs["j1"]
assert jobs["j2"]["read"]["io_bytes"] == 393216 and jobs["j2"]["error"] == 0, jobs["j2"]["read"]
assert jobs["j3"]["read"]["io_bytes"] == 0 and jobs["j3"]["error"] == 28, jobs["j3"]["error"]' ENOSPC
  [ -e small/j3.0.0 ] && fail "ENOSPC: the half-laid file is left: $(ls -l small)"
  # numjobs: only the clone whose file does not fit fails (fio: 384k, 384k,
  # err=28); every clone of the job failed, and a group_reporting block was
  # empty.
  rm -f small/*
  "$bin" --output-format=terse --name=n --directory=small --size=384k --numjobs=3 --rw=read \
    2>/dev/null | cut -d';' -f3,5,6 >n.txt
  expect_eq "ENOSPC, numjobs=3: name;err;KiB per clone" "$(tr '\n' ' ' <n.txt)" \
    "n;0;384 n;0;384 n;28;0 "
  # A file two jobs share that does not fit the larger: the smaller runs on
  # it and the larger fails with ENOSPC, as fio 3.33 (it was a refusal
  # naming a missing file, exit 2, then both failed; shared_file_layout.sh).
  rm -f small/*
  "$bin" --output-format=terse --name=a --filename=small/s --size=256k --rw=read --name=b \
    --filename=small/s --size=2m --rw=read 2>/dev/null | cut -d';' -f3,5 >s.txt
  expect_eq "ENOSPC, a shared file: exit" "${PIPESTATUS[0]}" 1
  expect_eq "ENOSPC, a shared file: name;err" "$(tr '\n' ' ' <s.txt)" "a;0 b;28 "
  rm -f small/*
  # A read-only directory is a refusal (EROFS, EACCES, EPERM: exit 2, no
  # report, nothing left behind; docs/running.md), in any job of the run.
  umount small && mount -t tmpfs -o ro,size=1m tmpfs small
  "$bin" --output-format=json --name=a --rw=write --filename=wa --size=16k --name=b --rw=write \
    --size=16k --directory=small >out4.json 2>err4.txt
  expect_eq "EROFS: exit" "$?" 2
  [ -s out4.json ] && fail "EROFS: a report was printed"
  [ -e wa ] && fail "EROFS: job a's file was left"
  grep -qx "iobench: job 'b': directory=small at <cmdline>: create small/b.0.0: Read-only file system" err4.txt ||
    fail "EROFS: stderr: $(cat err4.txt)"
  # The refusal names the option that named the file, with its line.
  printf '[r]\nrw=write\nsize=16k\nfilename=small/newfile\n' >ro.fio
  "$bin" ro.fio >/dev/null 2>err5.txt
  grep -qx "iobench: job 'r': filename=small/newfile at ro.fio:4: create small/newfile: Read-only file system" \
    err5.txt || fail "EROFS in a job file: stderr: $(cat err5.txt)"
else
  echo "skip ENOSPC, EROFS: mounting a small tmpfs needs root"
fi
[ "$fails" -eq 0 ]
