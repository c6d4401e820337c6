#!/bin/bash
# ioengine=mmap on devices. A character device has no size (st_size 0): the
# engine maps the job's region, as fio does, so /dev/zero reads and writes
# 256 x 4 KiB for size=1m (it mapped 0 bytes once, and a "successful" run
# did 0 I/Os; a time_based randread spun at 0 I/Os). A device that cannot be
# mapped (/dev/null) and, as root, a read-only loop device mapped by a write
# job are refused before the run (exit 2) saying why, with one "mmap: "
# prefix. With fio installed, /dev/zero's counts must equal fio 3.33's.
# direct=1 on a writable loop device writes each page back as it goes, as on
# a file: /sys/block's write count grows by one per I/O during the run (the
# engine took every block device for tmpfs, since fstatfs on a device node
# describes devtmpfs, and wrote nothing back: 11 us a write against fio's
# 3 ms, the page cache measured).
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-mmapdev.XXXXXX)
loop=""
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# counts TOOL ARGS...: "error r_ios r_bytes w_ios w_bytes sync_ios" of the first job
counts() { job_counts "$work/err" "$@"; }

while read -r want args; do
  want=${want//,/ }
  # shellcheck disable=SC2086
  got=$(counts "$bin" --name=z --ioengine=mmap --filename=/dev/zero --size=1m --bs=4k $args)
  [ "$got" = "$want" ] && echo "ok   /dev/zero $args: $got" ||
    fail "/dev/zero $args: got '$got', want '$want' ($(cat "$work/err"))"
  if fio_side; then
    # shellcheck disable=SC2086
    fgot=$(counts fio --name=z --ioengine=mmap --filename=/dev/zero --size=1m --bs=4k $args)
    [ "$fgot" = "$want" ] && echo "ok   fio agrees: $fgot" || fail "fio /dev/zero $args: '$fgot'"
  fi
done <<'EOF'
0,256,1048576,0,0,0 --rw=read
0,256,1048576,0,0,0 --rw=randread
0,0,0,256,1048576,0 --rw=write
0,0,0,256,1048576,0 --rw=randwrite
EOF

# time_based randread: it must do I/O (it once spun at 0 I/Os).
ios=$("$bin" --name=z --ioengine=mmap --filename=/dev/zero --size=1m --rw=randread --time_based \
  --runtime=1 --output-format=json 2>/dev/null | python3 -c '
import json, sys
t = sys.stdin.read()
print(json.loads(t[t.find("{"):])["jobs"][0]["read"]["total_ios"])')
[ "${ios:-0}" -gt 256 ] && echo "ok   time_based randread: $ios I/Os" ||
  fail "time_based randread of /dev/zero: '${ios:-}' I/Os"

# /dev/null has no mmap: a write job (a read of it is refused anyway: it
# returns nothing) is refused before the run, saying so.
out=$("$bin" --name=n --ioengine=mmap --filename=/dev/null --size=1m --rw=write 2>&1)
rc=$?
[ $rc -eq 2 ] && grep -q "job 'n': mmap: cannot map /dev/null.*No such device.*cannot be mapped" \
  <<<"$out" && echo "ok   /dev/null refused" || fail "/dev/null: exit $rc: $out"

# A read-only loop device: reads work, a write job is refused before the run.
if [ "$(id -u)" -ne 0 ]; then
  echo "skip: not root, no loop device (the /dev/zero and /dev/null checks ran)"
else
  truncate -s 4M "$work/img"
  loop=$(losetup -f --show -r "$work/img" 2>/dev/null) || loop=""
  if [ -z "$loop" ]; then
    echo "skip: losetup -r failed (the /dev/zero and /dev/null checks ran)"
  else
    got=$(counts "$bin" --name=r --ioengine=mmap --filename="$loop" --size=1m --rw=read)
    [ "$got" = "0 256 1048576 0 0 0" ] && echo "ok   read-only $loop read" ||
      fail "read of read-only $loop: '$got' ($(cat "$work/err"))"
    out=$("$bin" --name=w --ioengine=mmap --filename="$loop" --size=1m --rw=write 2>&1)
    rc=$?
    if [ $rc -eq 2 ] && grep -q "job 'w': mmap: cannot map $loop.*read-only" <<<"$out" &&
      ! grep -q "mmap: mmap" <<<"$out"; then
      echo "ok   write to read-only $loop refused"
    else
      fail "write to read-only $loop: exit $rc: $out"
    fi
  fi
fi

# direct=1 on a writable loop device: each write goes to the device.
if [ "$(id -u)" -eq 0 ]; then
  truncate -s 4M "$work/img2"
  if wloop=$(losetup -f --show "$work/img2" 2>/dev/null); then
    stat_file=/sys/block/$(basename "$wloop")/stat
    before=$(awk '{print $5}' "$stat_file")
    "$bin" --name=d --ioengine=mmap --filename="$wloop" --size=1m --bs=4k --rw=write --direct=1 \
      --output-format=terse >/dev/null 2>"$work/err"
    rc=$?
    after=$(awk '{print $5}' "$stat_file")
    losetup -d "$wloop"
    [ $rc -eq 0 ] && [ $((after - before)) -ge 256 ] &&
      echo "ok   direct=1 on $wloop: $((after - before)) device writes for 256 I/Os" ||
      fail "direct=1 on $wloop: exit $rc, $((after - before)) device writes for 256 I/Os ($(cat "$work/err"))"
  fi
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
