#!/bin/bash
# A discard that the kernel refuses with EINVAL (a range off the device's
# logical block size) gets a discard hint with or without direct=1: "a
# discard needs block-aligned ranges", the block size, and the options that
# put a trim there. It got the direct I/O hint with direct=1 ("... or
# direct=0", no fix for a discard) and none with direct=0. The walk here
# (random trims in strided zones 6 KiB apart, which the check before the
# run does not follow) trims 0 twice, then 6144. The sequential walk of the
# QA report (zonesize=6k) is refused before any I/O (exit 2). Root and a loop device
# with 4096-byte sectors over a sparse file in /var/tmp.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 16m 4096

hint="a discard needs block-aligned ranges: this device's logical block size is 4096 bytes (BLKSSZGET); this trim's offset 6144 is not a multiple of it: set offset=, blockalign=, any rw=...:N skip and zonerange= + zoneskip= (zonesize= without zonerange=) to multiples of 4096"
for direct in 0 1; do
  "$bin" --name=a --filename="$loop" --direct=$direct --rw=randtrim --norandommap=1 --bs=4k \
    --size=64k --zonemode=strided --zonesize=8k --zonerange=6k --output-format=terse \
    >out.txt 2>err.txt
  rc=$?
  msg=$(cat err.txt)
  expect_eq "direct=$direct: exit" "$rc" 1
  grep -qF "err=22 (trim $loop offset=6144 length=4096: Invalid argument; $hint)" err.txt ||
    fail "direct=$direct: stderr '$msg'"
  grep -q "direct=0\|direct=1:" err.txt && fail "direct=$direct: a direct I/O hint: '$msg'"
done

# The sequential walk: refused before the run, no discard issued.
"$bin" --name=a --filename="$loop" --direct=1 --rw=trim --bs=4k --size=64k --zonemode=strided \
  --zonesize=6k --output-format=terse >out.txt 2>err.txt
expect_eq "zonesize=6k: exit" "$?" 2
grep -qF "job 'a': the zone step 6144 (zonesize=6k at <cmdline>) is not a multiple of the logical block size 4096 of $loop; a discard needs block-aligned ranges" err.txt ||
  fail "zonesize=6k: stderr '$(cat err.txt)'"
grep -q "err=22" err.txt && fail "zonesize=6k: ran: '$(cat err.txt)'"

# Reads with direct=1 keep the direct I/O hint.
"$bin" --name=r --filename="$loop" --direct=1 --rw=randread --norandommap=1 --bs=4k --size=64k \
  --zonemode=strided --zonesize=8k --zonerange=6k --output-format=terse >out.txt 2>err.txt
expect_eq "read: exit" "$?" 1
grep -qF "Invalid argument; direct=1: this device takes direct I/O in multiples of 4096" err.txt ||
  fail "read: stderr '$(cat err.txt)'"
[ "$fails" -eq 0 ]
