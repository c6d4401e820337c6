#!/bin/bash
# verify=pattern with verify_interval below the block size writes fio 3.33's
# bytes: the pattern runs on unbroken through each block and %o is the
# block's offset (fio's io_u offset), however verify_interval cuts it. iobench
# restarted the pattern at each interval and put the interval's offset at %o,
# so each tool failed the other's file ("pattern mismatch ... offset 512
# expected 0x61, read 0x63"). The check is still per interval: a bad byte is
# reported with its interval's offset. With fio installed, fio verifies
# iobench's file and iobench fio's.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"
source "$(dirname "$0")/fio_side.bash"

fjob=(--name=w --size=64k --bs=4k --verify=pattern --verify_interval=512)
job=("${fjob[@]}" --verify_state_save=0)
for pat in '"abc"' '0xff%o"abcd"'; do
  rm -f iob fio
  run "${job[@]}" --filename=iob --rw=write --verify_pattern="$pat"
  [ "$rc" -eq 0 ] || fail "$pat: write and verify: exit $rc"
  # What is on disk, built here: the pattern ("abc", or ff, the block offset
  # in 8 little-endian bytes, "abcd") repeated through each 4 KiB block.
  python3 - iob "$pat" <<'PY' || fail "$pat: the bytes on disk are not the pattern through each block"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert len(data) == 65536, len(data)
for off in range(0, 65536, 4096):
    unit = b"abc" if sys.argv[2] == '"abc"' else b"\xff" + struct.pack("<Q", off) + b"abcd"
    want = (unit * (4096 // len(unit) + 1))[:4096]
    assert data[off:off + 4096] == want, off
PY
  run "${job[@]}" --filename=iob --rw=read --verify_pattern="$pat"
  [ "$rc" -eq 0 ] || fail "$pat: a read job verifying the file: exit $rc"
  if fio_side; then
    fio "${fjob[@]}" --filename=iob --rw=read --verify_pattern="$pat" \
      >fio.out 2>&1 || fail "$pat: fio fails iobench's file: $(grep -m2 -i 'verify\|fail' fio.out)"
    fio "${fjob[@]}" --filename=fio --rw=write --verify_pattern="$pat" \
      >fio.out 2>&1 || fail "$pat: fio's write: exit $?"
    cmp -s iob fio || fail "$pat: fio's file differs from iobench's"
    run "${job[@]}" --filename=fio --rw=read --verify_pattern="$pat"
    [ "$rc" -eq 0 ] || fail "$pat: iobench fails fio's file: $(cat err.txt)"
  fi
  echo "ok: verify_pattern=$pat with verify_interval=512"
done

# Reads that are not the blocks written (bsrange: a loaded state's record
# is read back in runs of chunks; norandommap) still pass: a chunk may be
# the pattern of a block that started before it (at the offset its %o says).
for pat in '"abc"' '0xff%o"abcd"'; do
  b=(--name=w --filename=br --size=256k --bsrange=4k-16k --verify=pattern --verify_interval=512
    --verify_pattern="$pat")
  run "${b[@]}" --rw=write --do_verify=0
  [ "$rc" -eq 0 ] || fail "$pat bsrange: write: exit $rc"
  run "${b[@]}" --rw=write --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 0 ] || fail "$pat bsrange: verify_only with the state: exit $rc: $(head -c 300 err.txt)"
  run "${b[@]}" --rw=randwrite --norandommap --verify_state_save=0
  [ "$rc" -eq 0 ] || fail "$pat bsrange norandommap: exit $rc: $(head -c 300 err.txt)"
done
echo "ok: reads other than the written blocks pass"

# A bad byte in block 1's fourth interval (offset 4096 + 1536) is reported
# with that interval and the byte.
printf 'Z' | dd of=iob bs=1 seek=$((4096 + 1536 + 100)) conv=notrunc status=none
run "${job[@]}" --filename=iob --rw=read --verify_pattern='0xff%o"abcd"'
[ "$rc" -eq 1 ] || fail "a flipped byte: exit $rc, want 1"
grep -q "pattern mismatch block at offset 5632, length 512: .* first differing byte at file offset 5732 (block byte 100): expected 0x63, read 0x5a" err.txt ||
  fail "a flipped byte: message $(cat err.txt)"
echo "ok: a bad byte is reported with its interval"
echo "all ok"
