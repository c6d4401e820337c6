#!/usr/bin/env bash
# A time_based buffered job drops the page cache where fio 3.33 does
# (loop_cache_invalidate): at its start, and again only when its offsets
# wrap (a sequential direction reaching the region's end, a full random
# map, an LFSR cycle). A random job whose offsets never run out
# (norandommap, a non-uniform random_distribution) is never wrapped by fio:
# one DONTNEED in the whole run. iobench used to drop the cache at each of
# its byte-budget passes there too: seed 000's norandommap randread on a
# 32 MiB file for 2 s read the device (17k IOPS) where fio read the cache
# (550k). The counts below do not depend on the machine's speed: each run
# is checked to have done more than one region's worth of I/O.
# $1: iobench binary, $2: source dir. Exit 77: skip (no strace).
source "$2/tests/e2e/setup.bash"
command -v strace >/dev/null || { echo "SKIP: needs strace"; exit 77; }
head -c 1M /dev/zero >f
blocks=256 # 1 MiB of 4k blocks

# run NAME ARGS...: sets $dontneed (posix_fadvise DONTNEED calls on f) and $ios.
run() {
  local name=$1
  shift
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -y -e trace=fadvise64 -o trace "$bin" --name=t --filename=f --size=1m --bs=4k \
    --ioengine=psync --runtime=300ms --time_based --output-format=json "$@" >out.json 2>err ||
    fail "$name: exit $? ($(head -c 300 err))"
  [ -s err ] && fail "$name: stderr: $(head -c 300 err)"
  dontneed=$(grep -c "fadvise64([0-9]*<[^>]*/f>, .*POSIX_FADV_DONTNEED" trace)
  ios=$(grep -m1 '"total_ios"' out.json | tr -dc 0-9)
  if [ "${ios:-0}" -le "$blocks" ]; then
    echo "SKIP: $name did $ios I/Os in 300 ms, not more than one pass: too slow to tell"
    exit 77
  fi
}

for args in "--rw=randread --norandommap" "--rw=randrw --norandommap" \
  "--rw=randread --random_distribution=zipf:1.2" "--rw=randread --random_distribution=normal:10"; do
  run "$args" $args
  expect_eq "$args ($ios I/Os): DONTNEED calls" "$dontneed" 1
done
# A job fio wraps drops the cache at each wrap: at least twice here.
for args in "--rw=randread" "--rw=read" "--rw=randread --random_generator=lfsr" \
  "--rw=randread:8 --norandommap"; do
  run "$args" $args
  [ "$dontneed" -ge 2 ] || fail "$args ($ios I/Os): $dontneed DONTNEED calls, want one per wrap"
done
# Two files of different sizes: each restarts in place when its map is
# full, and drops its pages then (fio: a DONTNEED per reset of either file).
# The fast prepare path left the restarts unapplied: 2 calls in all.
head -c 16k /dev/zero >g
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  strace -f -y -e trace=fadvise64 -o trace "$bin" --name=t --filename=g:f --bs=4k \
  --ioengine=psync --rw=randread --runtime=300ms --time_based --output-format=json \
  >out.json 2>err || fail "two files: exit $? ($(head -c 300 err))"
ios=$(grep -m1 '"total_ios"' out.json | tr -dc 0-9)
small=$(grep -c "fadvise64([0-9]*<[^>]*/g>, .*POSIX_FADV_DONTNEED" trace)
# g (4 blocks) gets every other I/O: a reset per 4 of its I/Os, less the
# last, unfinished one and the first open's.
[ "$small" -ge $((ios / 8 - 2)) ] ||
  fail "two files ($ios I/Os): $small DONTNEED calls on the 16k file, want about $((ios / 8))"
# invalidate=0: none at all.
run invalidate0 --rw=read --invalidate=0
expect_eq "invalidate=0: DONTNEED calls" "$dontneed" 0
[ "$fails" -eq 0 ]
