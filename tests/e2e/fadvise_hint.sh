#!/usr/bin/env bash
# fadvise_hint on a buffered file on ext4, seen through the page cache
# (fincore): with POSIX_FADV_RANDOM the kernel reads ahead nothing, so 200
# sequential 4 KiB reads leave exactly 200 pages cached; without it (hint 0,
# or fio's default 1 = advise by workload, SEQUENTIAL for rw=read) readahead
# caches more. invalidate=1 (the default) empties the cache first.
set -u
bin=$1
command -v fincore >/dev/null || { echo "SKIP: fincore (util-linux) not installed"; exit 77; }
tmp=$(mktemp -d /var/tmp/iobench_fadvise.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
f=$tmp/data
resident() {  # bytes of $f in the page cache after 200 buffered 4k reads
  "$bin" --name=a --ioengine=psync --rw="$1" --bs=4k --size=64m --filename="$f" \
    --number_ios=200 "${@:2}" --output-format=terse >/dev/null || fail "run $*: exit $?"
  fincore -b -n -o RES "$f"
}
resident read >/dev/null  # lay the file out once
# The 200 pages read, and no more: readahead adds at least 16 KiB (a window
# of read_ahead_kb=16, the smallest seen; the usual 128 adds 256 KiB or more,
# this machine's 3-5 MiB). A page the invalidation could not drop at that
# moment (held for a moment by reclaim or compaction on a loaded machine)
# stays cached too, so the bound between the two is the 200 pages + 16 KiB.
lim=$((819200 + 16384))
r=$(resident read --fadvise_hint=random)
[ "$r" -ge 819200 ] && [ "$r" -lt "$lim" ] ||
  fail "fadvise_hint=random, rw=read: $r bytes cached, want 819200 (no readahead)"
d=$(resident read)
[ "$d" -ge "$lim" ] || fail "default hint, rw=read: $d bytes cached, want readahead (>= $lim)"
n=$(resident read --fadvise_hint=0)
[ "$n" -ge "$lim" ] || fail "fadvise_hint=0, rw=read: $n bytes cached, want readahead (>= $lim)"
s=$(resident randread --fadvise_hint=sequential)
[ "$s" -gt 0 ] || fail "fadvise_hint=sequential, rw=randread: nothing cached"
# invalidate=1 drops the cache before every pass, as fio when it wraps or
# reopens a file: 64 MiB read, then half of it again (io_size=96m), leaves
# only the second pass's 32 MiB cached; invalidate=0 leaves all 64 MiB.
# A loaded machine may reclaim a few pages of either (seen: 16-416 KiB under
# parallel builds), so each may fall short by up to 1 MiB, never more.
p=$(resident read --fadvise_hint=random --number_ios=0 --io_size=96m)
[ "$p" -le $((32 << 20)) ] && [ "$p" -ge $((31 << 20)) ] ||
  fail "invalidate=1, two passes: $p bytes cached, want 32 MiB"
q=$(resident read --fadvise_hint=random --number_ios=0 --io_size=96m --invalidate=0)
[ "$q" -le $((64 << 20)) ] && [ "$q" -ge $((63 << 20)) ] ||
  fail "invalidate=0, two passes: $q bytes cached, want 64 MiB"
# The mmap engine too: its pages are mapped, which the cache cannot drop, so
# the engine unmaps the region before the worker drops it (fio 3.33 keeps
# all 64 MiB here). The second pass faults its 32 MiB back in, plus at most
# fault-around and readahead, and less the few pages a loaded machine may
# reclaim, as above (seen in CI: 8 KiB short).
m=$(resident read --ioengine=mmap --fadvise_hint=random --number_ios=0 --io_size=96m)
[ "$m" -ge $((31 << 20)) ] && [ "$m" -le $((40 << 20)) ] ||
  fail "mmap, invalidate=1, two passes: $m bytes cached, want 31-40 MiB"
out=$("$bin" --name=a --ioengine=psync --rw=read --size=1m --filename="$f" --fadvise_hint=often \
  --parse-only 2>&1) && fail "fadvise_hint=often accepted"
grep -q "fadvise_hint 'often': expected 0, 1, sequential or random" <<<"$out" || fail "message: $out"
echo ok
