#!/bin/bash
# Damage in a chunk whose writes overlapped in flight is found. A norandommap
# io_uring (or libaio) QD64 writer saves its state; a byte is flipped in up
# to 3 chunks the state marks overlapped (others when the run had none: how
# many overlap depends on completion timing) and in one plain chunk; a
# verify_only run with verify_state_load must fail each of them. iobench
# skipped every overlapped chunk that did not match ("639 verified, 3
# skipped, 0 failed", exit 0). Good data verifies with 0 failed.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

eng=io_uring
engine_ok io_uring || eng=libaio
engine_ok $eng || { echo "skip: neither io_uring nor libaio is usable"; exit 77; }

job=(--name=w --filename=X --size=4m --bs=4k --rw=randwrite --ioengine=$eng --iodepth=64
  --verify=crc32c --norandommap=1 --randseed=3)
run "${job[@]}" --do_verify=0
[ "$rc" -eq 0 ] || fail "write: exit $rc"
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "good data: exit $rc"
grep -q ' 0 failed' out.json || fail "good data: failures"

# Picks the chunks and flips byte 3000 of each; prints how many.
n=$(python3 - <<'PY'
import os, struct
d = open("local-w-0-verify.state", "rb").read()
assert d[:8] == b"IOBVSTAT"
p = 8 + struct.calcsize("<IIQQIIQ")
base, cnt = struct.unpack_from("<QQ", d, p)
p += 16
over, plain = [], []
for i in range(cnt):
    gen, flags = struct.unpack_from("<II", d, p)
    p += 8
    if gen and not flags & 1:
        (over if flags & 2 else plain).append(i)
pick = over[:3] + plain[:4 - min(3, len(over))]
fd = os.open("X", os.O_RDWR)
for c in pick:
    off = base + c * 4096 + 3000
    b = os.pread(fd, 1, off)
    os.pwrite(fd, bytes([b[0] ^ 0xff]), off)
os.close(fd)
print(len(pick), len(over))
PY
)
read -r damaged overlapped <<<"$n"
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "damaged: exit $rc, want 1"
grep -q " 0 skipped, $damaged failed" out.json || fail "damaged: want $damaged failed, 0 skipped"
echo "ok: $damaged damaged chunks ($overlapped overlapped in the state) all fail"
echo "all ok"
