#!/usr/bin/env bash
# ioengine=mmap: a page of the mapping that cannot be backed faults (SIGBUS).
# iobench died of it with no report and no message, as fio 3.33 does: a
# write into a hole of a file on a full file system (a sparse 2 MiB file on
# a 1 MiB tmpfs), or a read of a file truncated under the mapping. The I/O
# now ends as read(2)/write(2) would end it: ENOSPC for the write (the job's
# error, or tolerated by ignore_error), the end of the file for the read.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# A file truncated by another job (ioengine=ftruncate to 0 after 1 s) while
# an mmap job reads it: the reads find the end of the file, as with psync.
dd if=/dev/zero of=t.dat bs=1M count=4 status=none
"$bin" --name=r --filename=t.dat --bs=4k --size=4m --rw=read --ioengine=mmap --time_based \
  --runtime=2 --rate_iops=100 --name=t --filename=t.dat --ioengine=ftruncate --rw=write --bs=4k \
  --size=4k --startdelay=1 --output-format=json >trunc.json 2>err
expect_eq "truncated: exit" "$?" 0
expect_eq "truncated: stderr" "$(cat err)" ""
expect_eq "truncated: error, note" "$(python3 -c '
import json; j = json.load(open("trunc.json"))["jobs"][0]
print(j["error"], any("end of the file" in n for n in j["iobench"]["notes"]))')" "0 True"

[ "$(id -u)" -eq 0 ] || { echo "skip: mounting a 1 MiB tmpfs needs root"; exit 77; }
mkdir small
mount -t tmpfs -o size=1m none small || { echo "skip: cannot mount tmpfs"; exit 77; }
trap 'cd /; umount "$tmp/small"; rm -rf "$tmp"' EXIT

truncate -s 2m small/f
want="write $tmp/small/f offset=1048576 length=65536: No space left on device"
"$bin" --name=w --filename=small/f --bs=64k --size=2m --rw=write \
  --ioengine=mmap --output-format=json >full.json 2>err
expect_eq "full: exit" "$?" 1
expect_eq "full: stderr" "$(cat err)" "iobench: job 'w': err=28 (${want/$tmp\/small\/f/small/f})"
expect_eq "full: error, bytes" "$(python3 -c '
import json; j = json.load(open("full.json"))["jobs"][0]
print(j["error"], j["write"]["io_bytes"])')" "28 1048576"

# Tolerated: every later write faults too, and each is counted (psync and
# fio 3.33 give the same figures on the same tmpfs: error 28, 16, 1 MiB).
rm -f small/f
truncate -s 2m small/f
"$bin" --name=w --filename=small/f --bs=64k --size=2m --rw=write --ioengine=mmap \
  --continue_on_error=write --ignore_error=,ENOSPC --output-format=json >tol.json 2>err
expect_eq "tolerated: exit" "$?" 0
expect_eq "tolerated: stderr" "$(cat err)" ""
expect_eq "tolerated: error, total_err, bytes" "$(python3 -c '
import json; j = json.load(open("tol.json"))["jobs"][0]
print(j["error"], j["total_err"], j["write"]["io_bytes"])')" "28 16 1048576"
[ "$fails" -eq 0 ]
