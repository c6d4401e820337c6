#!/bin/bash
# verify_pattern with %o (fio): each block carries its own offset in the
# pattern. Write + verify passes (verify=pattern and a checksum type, psync
# and io_uring); the bytes on disk are the pattern with the block offset
# little-endian at %o's place in every repetition; a block copied to another
# place (misplaced) is found at the place it was copied to. Patterns read
# from files ('name', fio's form) fill and verify.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
size=$((256 * 1024))
bs=4096
pattern='0xff%o"abcd"'
for eng in psync io_uring; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  for type in pattern crc32c; do
    run --name=v --ioengine=$eng --iodepth=4 --filename="$f" --size=$size --bs=$bs \
      --rw=randwrite --verify=$type --verify_pattern="$pattern" --verify_state_save=0
    [ "$rc" -eq 0 ] || fail "$eng verify=$type with %o: exit $rc"
    [ -s err.txt ] && fail "$eng verify=$type with %o: unexpected stderr"
    [ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = "$size" ] || fail "$eng $type: reads"
    grep -q "64 blocks written, 64 verified, 0 skipped, 0 failed" out.json ||
      fail "$eng $type: verify note"
    echo "ok: $eng verify=$type verify_pattern=$pattern"
  done
done

# What verify=pattern wrote: block 5 (offset 20480) repeats ff, the offset in
# 8 little-endian bytes, "abcd" (13 bytes), up to its end.
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=pattern \
  --verify_pattern="$pattern" --verify_state_save=0
[ "$rc" -eq 0 ] || fail "sequential write with %o: exit $rc"
python3 - "$f" <<'PY' || fail "the pattern on disk is not ff + offset + abcd"
import struct, sys
data = open(sys.argv[1], "rb").read()
for block in (0, 5, 63):
    off = block * 4096
    unit = b"\xff" + struct.pack("<Q", off) + b"abcd"
    want = (unit * (4096 // len(unit) + 1))[:4096]
    assert data[off:off + 4096] == want, block
PY
echo "ok: the offset is in every repetition of the pattern"

# A misplaced block: block 2 copied over block 7 keeps block 2's offset.
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=pattern \
  --verify_pattern="$pattern" --do_verify=0 --verify_state_save=0
dd if="$f" of="$f" bs=$bs skip=2 seek=7 count=1 conv=notrunc status=none || fail "dd"
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=pattern \
  --verify_pattern="$pattern" --verify_only=1 --verify_state_save=0 --verify_async=1
[ "$rc" -eq 1 ] || fail "misplaced block: exit $rc, want 1"
[ "$(grep -c 'block at offset' err.txt)" = 1 ] || fail "misplaced block: want one failure"
grep -q "pattern mismatch block at offset 28672, length 4096" err.txt ||
  fail "misplaced block: wrong block"
# Block 2's offset 8192 = 0x2000 where 28672 = 0x7000 was expected: byte 2.
grep -q "first differing byte at file offset 28674 (block byte 2): expected 0x70, read 0x20" \
  err.txt || fail "misplaced block: wrong first byte"
echo "ok: a misplaced block is found by its offset"

# fio's 'name' form (its test t0027): the pattern is a file's bytes, opened
# from the working directory. A write job fills with it, a verify_only pass
# with the same file checks it, and one with another file fails.
printf 'hello pattern\n' >p1.pat
printf 'other\n' >p2.pat
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --buffer_pattern="'p1.pat'"
[ "$rc" -eq 0 ] || fail "buffer_pattern='p1.pat': exit $rc"
head -c 28 "$f" | cmp -s - <(printf 'hello pattern\nhello pattern\n') ||
  fail "buffer_pattern='p1.pat' wrote $(head -c 28 "$f" | od -c | head -2)"
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=pattern \
  --verify_pattern="'p1.pat'" --verify_only=1 --verify_state_save=0
[ "$rc" -eq 0 ] || fail "verify_pattern='p1.pat' over its own data: exit $rc"
run --name=v --filename="$f" --size=$size --bs=$bs --rw=write --verify=pattern \
  --verify_pattern="'p2.pat'" --verify_only=1 --verify_state_save=0
[ "$rc" -eq 1 ] || fail "verify_pattern='p2.pat' over p1's data: exit $rc, want 1"
echo "ok: patterns read from files"
echo "all ok"
