#!/usr/bin/env bash
# invalidate=1 on a block device without CAP_SYS_ADMIN, where BLKFLSBUF is
# refused (EACCES): as nobody (the device made 0666 for the test) and as
# root without capabilities (a container). iobench skipped the drop
# silently as a user, so a randread on a cached loop device reported page
# cache hits (loop: ios=0) under the "cache is dropped" note, and failed
# as root without capabilities. fio 3.33 warns "cache invalidation ...
# failed: Permission denied" and reads the cache (ios=0). Now iobench falls
# back to fsync + posix_fadvise(DONTNEED) over the job's region, which
# needs no privilege: every read of the job reaches the device, counted in
# /sys/block/loopN/stat. The test holds the device open so that the last
# close does not drop its cache by itself.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup,
# no setpriv, no user nobody).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop device)"; exit 77; }
for t in losetup setpriv dd stat; do
  command -v $t >/dev/null || { echo "SKIP: needs $t"; exit 77; }
done
id nobody >/dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-invpriv.XXXXXX)
chmod 755 "$work"
loop=""
mode=""
cleanup() {
  exec 3<&- 2>/dev/null
  [ -n "$mode" ] && chmod "$mode" "$loop"
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# A copy nobody can run, whatever the modes of the build tree above it.
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
dd if=/dev/urandom of="$work/img" bs=1M count=16 status=none
loop=$(losetup -f --show "$work/img" 2>/dev/null) || {
  loop=""
  echo "SKIP: no loop device"
  exit 77
}
mode=$(stat -c %a "$loop")
chmod 666 "$loop"
stat_file=/sys/block/$(basename "$loop")/stat
exec 3<"$loop"

user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
nocaps="setpriv --inh-caps=-all --bounding-set=-all"
# 4 MiB of 4 KiB random reads: 1024 reads, each to the device once the
# cache is dropped (fadvise_hint=1 turns readahead off for random I/O).
for who in user nocaps; do
  dd if="$loop" of=/dev/null bs=1M status=none # the whole device in the cache
  before=$(awk '{print $1}' "$stat_file")
  (cd "$work" && ${!who} ./iobench --name=d --filename="$loop" --rw=randread --bs=4k --size=4m \
    --ioengine=psync >"$work/out" 2>"$work/err")
  rc=$?
  after=$(awk '{print $1}' "$stat_file")
  expect_eq "$who: exit status" "$rc" 0
  expect_eq "$who: stderr" "$(cat "$work/err")" ""
  reads=$((after - before))
  if [ "$reads" -ge 1024 ]; then
    echo "ok   $who: $reads reads reached $loop"
  else
    fail "$who: $reads reads reached $loop, want >= 1024 (the cache was not dropped)"
  fi
  grep -q "did NOT drop" "$work/out" && fail "$who: the report says the cache was not dropped"
done

[ "$fails" -eq 0 ] || exit 1
echo "invalidate without CAP_SYS_ADMIN: ok"
