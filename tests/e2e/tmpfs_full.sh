#!/bin/bash
# Writes into a full 1 MiB tmpfs (root: mount), checked against fio 3.33
# (and run with fio too when it is installed):
#  - 384k writes: the third is cut short at 1 MiB and its remainder fails
#    with ENOSPC. The remainder is an I/O of its own (issued rwts total=0,4
#    short=0,1; with size=3m ignore_error=,ENOSPC total_ios 9) and the error
#    names its range (offset=1048576 length=131072). iobench used to count 3
#    (8) and name the whole write (offset=786432 length=393216).
#  - fill_device=1 without size=: writes until ENOSPC, exit 0, the file 1
#    MiB (384k: total=0,4 short=0,1, 786432 bytes; 64k: 17 I/Os, 1048576
#    bytes), and the report notes that the filesystem was full. iobench
#    used to size the job to the free space and stop before the last,
#    partial block (2 writes of 384k, no ENOSPC).
#  - a file system out of inodes (tmpfs nr_inodes=2, both taken): creating
#    the job's file fails with ENOSPC while `df` shows free space; the
#    error says that the inodes ran out (fio: "No space left on device").
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: mounting a small tmpfs needs root"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-tmpfs-full.XXXXXX)
mnt="$work/small"
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mnt" 2>/dev/null
  mountpoint -q "$work/noinode" && umount "$work/noinode"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$mnt" && mount -t tmpfs -o size=1m tmpfs "$mnt" || { echo "skip: mount -t tmpfs failed"; exit 77; }
mounted=1
got=()
. "$2/tests/e2e/check.bash"
# json FILE EXPR: EXPR in Python over j, the first job of the JSON in FILE.
json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.JSONDecoder().raw_decode(t[t.find("{"):])[0]["jobs"][0]
print(eval(sys.argv[2]))
PY
}
available() { "$bin" --list-engines | grep -qE "^$1 +available"; }

for e in psync libaio io_uring; do
  available "$e" || { echo "skip $e: not available"; continue; }
  rm -f "$mnt"/*
  timeout 20 "$bin" --name=w --ioengine="$e" --filename="$mnt/f" --rw=write --bs=384k --size=2m \
    --output-format=normal,json >"$work/short.out" 2>"$work/short.err"
  expect_eq "short-$e exit" $? 1
  grep -q "issued rwts: total=0,4,0,0 short=0,1,0,0 dropped=0,0,0,0" "$work/short.out" ||
    fail "short-$e: $(grep 'issued rwts' "$work/short.out")"
  grep -q "err=28 (write $mnt/f offset=1048576 length=131072: No space left on device)" \
    "$work/short.out" || fail "short-$e: $(grep -m1 'err=' "$work/short.out")"
  # No continue_on_error: no errors line, as fio (err= names the error).
  grep -q "errors    :" "$work/short.out" && fail "short-$e: errors line without continue_on_error"
  expect_eq "short-$e json" \
    "$(json "$work/short.out" 'j["write"]["total_ios"], j["write"]["short_ios"], j["write"]["io_bytes"], j["iobench"]["first_error"]["offset"]')" \
    "(4, 1, 786432, 1048576)"
  rm -f "$mnt"/*
  timeout 20 "$bin" --name=w --ioengine="$e" --filename="$mnt/f" --rw=write --bs=384k --size=3m \
    --ignore_error=,ENOSPC --output-format=json >"$work/ignore.out" 2>"$work/ignore.err"
  expect_eq "short-ignore-$e exit" $? 0
  expect_eq "short-ignore-$e json" \
    "$(json "$work/ignore.out" 'j["error"], j["total_err"], j["write"]["total_ios"], j["write"]["io_bytes"]')" \
    "(28, 6, 9, 786432)"
done

# An error of a class continue_on_error does not cover stops the job and is
# not counted: total_err 0 and first_error 0, as fio 3.33 (iobench used to
# give first_error 28), while error is 28 and the exit code 1.
rm -f "$mnt"/*
timeout 20 "$bin" --name=w --filename="$mnt/f" --rw=write --bs=64k --size=2m \
  --ignore_error=,ENOSPC --continue_on_error=read --output-format=normal,json,terse \
  >"$work/coe.out" 2>"$work/coe.err"
expect_eq "coe-read exit" $? 1
expect_eq "coe-read json" "$(json "$work/coe.out" 'j["error"], j["total_err"], j["first_error"]')" \
  "(28, 0, 0)"
grep -q "errors    : total=0, first_error=0/<Success>" "$work/coe.out" ||
  fail "coe-read: $(grep 'errors    :' "$work/coe.out")"
expect_eq "coe-read terse" "$(grep '^3;' "$work/coe.out" | awk -F';' '{print $5, $(NF-1), $NF}')" \
  "28 0 0"

for bs in 384k 64k; do
  rm -f "$mnt"/*
  timeout 20 "$bin" --name=w --filename="$mnt/f" --rw=write --bs=$bs --fill_device=1 \
    --output-format=normal,json >"$work/fill.out" 2>"$work/fill.err"
  expect_eq "fill-$bs exit" $? 0
  [ -s "$work/fill.err" ] && fail "fill-$bs: stderr: $(head -2 "$work/fill.err")"
  want="(4, 1, 786432) 1048576"
  [ $bs = 64k ] && want="(17, 0, 1048576) 1048576"
  expect_eq "fill-$bs" \
    "$(json "$work/fill.out" 'j["write"]["total_ios"], j["write"]["short_ios"], j["write"]["io_bytes"]') $(stat -c %s "$mnt/f")" \
    "$want"
  grep -q "note: fill_device: the filesystem was full" "$work/fill.out" || fail "fill-$bs: no note"
done
# iodepth > 1: the writes in flight when the region ends go on into a next
# region and fail with ENOSPC, as fio's (total=0,7, the same bytes); the
# job wrote no more than its region, so no note says it ran out before
# the filesystem was full (it did, falsely, with "3 more regions").
if available libaio; then
  rm -f "$mnt"/*
  timeout 20 "$bin" --name=w --filename="$mnt/f" --rw=write --bs=384k --fill_device=1 \
    --ioengine=libaio --iodepth=4 --output-format=normal,json >"$work/fillq.out" 2>"$work/fillq.err"
  expect_eq "fill-qd4 exit" $? 0
  [ -s "$work/fillq.err" ] && fail "fill-qd4: stderr: $(head -2 "$work/fillq.err")"
  expect_eq "fill-qd4" "$(json "$work/fillq.out" 'j["write"]["total_ios"], j["write"]["io_bytes"]')" \
    "(7, 786432)"
  grep -q "note: fill_device: the filesystem was full" "$work/fillq.out" || fail "fill-qd4: no note"
  grep -q "ran out before the filesystem was full" "$work/fillq.out" &&
    fail "fill-qd4: $(grep -m1 'ran out before' "$work/fillq.out")"
fi

# Out of inodes: the tmpfs root is one, file "a" the other.
mkdir "$work/noinode"
if mount -t tmpfs -o size=1m,nr_inodes=2 tmpfs "$work/noinode" && touch "$work/noinode/a"; then
  for extra in "" "--create_on_open=1"; do
    # shellcheck disable=SC2086
    "$bin" --name=w --filename="$work/noinode/f" --rw=write --size=64k $extra \
      >/dev/null 2>"$work/inode.err"
    expect_eq "out of inodes $extra: exit" "$?" 1
    grep -q "^iobench: job 'w': err=28 (.* $work/noinode/f (its file system has no free inode: 2 of 2 in use, see df -i): No space left on device)$" \
      "$work/inode.err" || fail "out of inodes $extra: $(cat "$work/inode.err")"
  done
  # The only phase failed at its layout: the report still says where it
  # ran (the header was "iobench-0.1.0" alone, the JSON context zeros).
  "$bin" --name=w --filename="$work/noinode/f" --rw=write --size=64k >"$work/inode.out" 2>/dev/null
  head -1 "$work/inode.out" | grep -q "^iobench-[^:]*: kernel $(uname -r), " ||
    fail "out of inodes: header $(head -1 "$work/inode.out")"
  "$bin" --name=w --filename="$work/noinode/f" --rw=write --size=64k --output-format=json \
    >"$work/inode.json" 2>/dev/null
  expect_eq "out of inodes: JSON context" "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["context"]
print(c["kernel"] == sys.argv[2], c["cpus"] > 0, c["mem_bytes"] > 0)' "$work/inode.json" "$(uname -r)")" \
    "True True True"
else
  echo "skip out of inodes: cannot mount a tmpfs with nr_inodes=2"
fi

if fio_side; then
  for args in "--size=2m" "--size=3m --ignore_error=,ENOSPC" "--fill_device=1" \
    "--fill_device=1 --bs=64k"; do
    for tool in "$bin" fio; do
      rm -f "$mnt"/*
      # shellcheck disable=SC2086
      got[${#got[@]}]=$(job_counts "$work/fio.err" "$tool" --name=w --filename="$mnt/f" \
        --rw=write --bs=384k $args)
    done
    expect_eq "fio agrees ($args)" "${got[0]}" "${got[1]}"
    got=()
  done
fi

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
