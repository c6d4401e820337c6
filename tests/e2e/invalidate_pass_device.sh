#!/usr/bin/env bash
# invalidate=1 on a block device drops the cache with BLKFLSBUF before every
# pass, as at the job's start and as fio 3.33 (its file_invalidate_cache at
# each reopen and wrap). Later passes used posix_fadvise(DONTNEED), which
# leaves dirty pages in the cache: a buffered rw=write of 1 MiB with
# loops=50 on a loop device wrote 2-6 MiB to the device where fio writes
# 50 MiB (/sys/block/loopN/stat), and rw=rw read ~4 MiB from it where fio
# reads ~70 MiB. Checked here with strace (one BLKFLSBUF per pass, no
# DONTNEED on the device; none with invalidate=0) and with the device's
# write counter.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup,
# no strace, no loop device).
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v strace >/dev/null || { echo "SKIP: needs strace"; exit 77; }
# A 64 MiB image in /var/tmp on a loop device, detached at exit.
scratch_loop 64M 512
stat_file=/sys/block/$(basename "$loop")/stat

# run NAME ARGS...: iobench under strace on $loop; sets $flush and $dontneed
# (calls on the device's descriptor) and $written (KiB the device wrote).
run() {
  local name=$1
  shift
  local before after
  before=$(awk '{print $7}' "$stat_file")
  # LeakSanitizer cannot work under ptrace (the ASan stage): off for it.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -y -e trace=ioctl,fadvise64 -o "$tmp/trace" "$bin" --name=m --filename="$loop" \
    --bs=64k --size=1m --direct=0 --ioengine=psync --output-format=terse "$@" \
    >/dev/null 2>"$tmp/err" || fail "$name: exit $? ($(head -c 300 "$tmp/err"))"
  after=$(awk '{print $7}' "$stat_file")
  written=$(((after - before) / 2))
  flush=$(grep -c "ioctl([0-9]*<$loop>, BLKFLSBUF" "$tmp/trace")
  dontneed=$(grep -c "fadvise64([0-9]*<$loop>, .*POSIX_FADV_DONTNEED" "$tmp/trace")
}

# The counts are fio 3.33's, none of which has DONTNEED on the device.
run write-loops3 --rw=write --loops=3
expect_eq "write loops=3: BLKFLSBUF" "$flush" 3
expect_eq "write loops=3: DONTNEED on the device" "$dontneed" 0
# rw=rwmixread=50 loops=3 has two loops, the second cut by the cap (patterns.md).
run rw-loops3 --rw=rw --rwmixread=50 --loops=3
expect_eq "rw loops=3: BLKFLSBUF" "$flush" 2
expect_eq "rw loops=3: DONTNEED on the device" "$dontneed" 0
# A wrap within the job: io_size three times the region.
run read-io_size --rw=read --io_size=3m
expect_eq "read io_size=3m: BLKFLSBUF" "$flush" 3
expect_eq "read io_size=3m: DONTNEED on the device" "$dontneed" 0
run invalidate0 --rw=write --loops=3 --invalidate=0
expect_eq "invalidate=0: BLKFLSBUF" "$flush" 0
expect_eq "invalidate=0: DONTNEED on the device" "$dontneed" 0

# Each pass's dirty pages reach the device: 50 passes of 1 MiB, 51200 KiB
# in fio 3.33 (the last pass's at the close).
run write-loops50 --rw=write --loops=50
if [ "$written" -ge 51200 ]; then
  echo "ok   loops=50: $written KiB written to $loop"
else
  fail "loops=50: $written KiB written to $loop, want >= 51200 (dirty pages kept between passes)"
fi

[ "$fails" -eq 0 ]
