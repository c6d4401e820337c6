#!/usr/bin/env bash
# blockalign larger than the region of a random job: fio 3.33 draws from
# region / blockalign slots, finds none and does 0 I/Os (silently);
# iobench read offset 0 sixteen times (size=64k bs=4k blockalign=1m). Both
# are of no use: the job is refused before any I/O, naming blockalign with
# where it was set and the region's size. blockalign up to the region, and
# a sequential job or percentage_random=0 (which never uses it), still run.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

for engine in null psync; do
  err=$("$bin" --name=j --ioengine="$engine" --filename="$tmp/f" --size=64k --bs=4k \
    --rw=randread --blockalign=1m --output-format=terse 2>&1 >out.txt)
  rc=$?
  expect_eq "$engine blockalign=1m: exit" "$rc" 2
  expect_eq "$engine blockalign=1m: no report" "$(wc -c <out.txt)" 0
  case $err in
    *"blockalign=1m at <cmdline> (read, 1048576 bytes) is larger than the region of "*"(65536 bytes, size=64k at <cmdline>)"*) ;;
    *) fail "$engine blockalign=1m: message: $err" ;;
  esac
done

# In a job file, per direction: the write alignment is the one too large.
cat >b.fio <<JOB
[j]
ioengine=null
size=64k
rw=randrw
blockalign=4k,128k
JOB
err=$("$bin" b.fio 2>&1 >/dev/null) && fail "randrw blockalign=4k,128k ran"
case $err in
  *"blockalign=4k,128k at b.fio:5 (write, 131072 bytes) is larger than the region"*) ;;
  *) fail "job file message: $err" ;;
esac

ios() { "$bin" --name=j --ioengine=null --size=64k --bs=4k "$@" --output-format=terse | cut -d';' -f6; }
expect_eq "blockalign=64k (the region)" "$(ios --rw=randread --blockalign=64k)" 64
expect_eq "blockalign=1m percentage_random=0" "$(ios --rw=randread --blockalign=1m --percentage_random=0)" 64
expect_eq "blockalign=1m rw=read" "$(ios --rw=read --blockalign=1m)" 64
[ "$fails" -eq 0 ]
