#!/bin/bash
# ctest-labels: threads
# verify_async=N (src/run/verify_async.h): N threads check the verify reads.
# On tmpfs (/dev/shm, else the temp dir): write + verify passes with psync,
# libaio and io_uring and gives exactly the counts of verify_async=0 (verify
# phase and verify_backlog); a flipped byte is found at its offset with the
# same message as without verify_async; verify_fatal stops after the first
# bad block; verify_dump writes both blocks.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

dir=/dev/shm
[ -d "$dir" ] && [ -w "$dir" ] || dir=$tmp
f="$dir/iobench_vasync_$$"
trap 'rm -f "$f"; cd /; rm -rf "$tmp"' EXIT
size=$((1024 * 1024))
bs=4096
blocks=$((size / bs))

# counts: read ios, read bytes, write ios, write bytes, and the verify note.
counts() {
  python3 - <<'PY'
import json
j = json.load(open("out.json"))["jobs"][0]
notes = [n for n in j.get("iobench", {}).get("notes", []) if n.startswith("verify: ")]
print(j["read"]["total_ios"], j["read"]["io_bytes"], j["write"]["total_ios"],
      j["write"]["io_bytes"], notes)
PY
}

ran=0
for eng in psync libaio io_uring; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  for extra in "--rw=randwrite" "--rw=write --verify_backlog=16"; do
    # shellcheck disable=SC2086
    run --name=v --ioengine=$eng --filename="$f" --size=$size --bs=$bs $extra --iodepth=8 \
      --verify=crc32c --verify_state_save=0
    [ "$rc" -eq 0 ] || fail "$eng $extra verify_async=0: exit $rc"
    want=$(counts)
    # shellcheck disable=SC2086
    run --name=v --ioengine=$eng --filename="$f" --size=$size --bs=$bs $extra --iodepth=8 \
      --verify=crc32c --verify_state_save=0 --verify_async=2
    [ "$rc" -eq 0 ] || fail "$eng $extra verify_async=2: exit $rc"
    [ -s err.txt ] && fail "$eng $extra verify_async=2: unexpected stderr"
    got=$(counts)
    [ "$got" = "$want" ] || fail "$eng $extra: verify_async=2 counts '$got' != '$want'"
    case "$got" in
      *"$blocks blocks written, "*"0 skipped, 0 failed"*) ;;
      *) fail "$eng $extra: verify note: $got" ;;
    esac
    [ "$(jget 'doc["jobs"][0]["write"]["io_bytes"]')" = "$size" ] || fail "$eng: write bytes"
    grep -q '"verify_async: 2 check thread(s) used' out.json || fail "$eng: no verify_async note"
    echo "ok: $eng $extra verify_async=2: $got"
    ran=$((ran + 1))
  done
done
[ "$ran" -gt 0 ] || { echo "skip: no engine usable"; exit 77; }

# A flipped byte: found at its offset, with the same message as inline.
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=crc32c \
  --do_verify=0 --verify_state_save=0
[ "$rc" -eq 0 ] || fail "write pass: exit $rc"
flip "$f" 13288
verify_only() {
  run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=crc32c \
    --verify_only=1 --verify_state_save=0 "$@"
}
verify_only --verify_async=0
cp err.txt err.inline
verify_only --ioengine=psync --iodepth=8 --verify_async=2
[ "$rc" -eq 1 ] || fail "flipped byte, verify_async=2: exit $rc, want 1"
grep -q "block at offset 12288, length 4096" err.txt || fail "flipped byte: wrong block"
grep -q "first differing byte at file offset 13288 (block byte 1000)" err.txt ||
  fail "flipped byte: wrong byte"
cmp -s err.txt err.inline || fail "verify_async message differs: $(diff err.inline err.txt)"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = "$size" ] || fail "not every block was read"
[ "$(jget 'doc["jobs"][0]["error"]')" = 84 ] || fail "job error is not EILSEQ"
echo "ok: a flipped byte is found at offset 13288 with verify_async=2"

# verify_dump with verify_async: both blocks in the current directory.
verify_only --ioengine=io_uring --iodepth=8 --verify_async=2 --verify_dump=1
[ "$rc" -eq 1 ] || fail "verify_dump run: exit $rc"
b=$(basename "$f")
if [ ! -s "$b.12288.received" ] || [ ! -s "$b.12288.expected" ]; then
  fail "verify_dump files missing: $(ls)"
fi
cmp -s "$b.12288.received" "$b.12288.expected" && fail "dumped blocks are equal"
echo "ok: verify_dump with verify_async"

# verify_fatal: a second bad block further on is never reached. One request
# slot: the check of block 3 ends before block 4 is read.
flip "$f" $((200 * bs + 7))
verify_only --ioengine=psync --iodepth=1 --verify_async=2 --verify_fatal=1
[ "$rc" -eq 1 ] || fail "verify_fatal: exit $rc"
[ "$(grep -c 'block at offset' err.txt)" = 1 ] || fail "verify_fatal: not exactly one failure"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 4 ] || fail "verify_fatal: did not stop at 4"
verify_only --ioengine=psync --iodepth=8 --verify_async=2
[ "$(grep -c 'block at offset' err.txt)" = 2 ] || fail "without verify_fatal: want 2 failures"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = "$blocks" ] || fail "without fatal: reads"
echo "ok: verify_fatal stops at the first bad block with verify_async"
echo "all ok"
