#!/usr/bin/env bash
# With randrepeat=1 (the default) and no randseed, fio 3.33's clear_io_state
# re-seeds the buffer contents at each loop start (buf_state, and the dedupe
# draws), so a refilled loop 2 writes loop 1's data again. Shifted: fio
# filled its iodepth buffers from that stream before the first loop, and
# loop 2 writes those fills first, so rw=write's block j in loop 2 is block
# j - iodepth of loop 1 (iodepth buffers even with psync). Measured by
# comparing the file a loops=1 run leaves with a loops=2 run's (size=64k
# bs=4k, 16 blocks): refill_buffers, buffer_compress_percentage and
# dedupe_percentage (both modes) shift by iodepth; randseed=N and
# randrepeat=0 write 16 blocks loop 1 never wrote; scrambled buffers (the
# default) too (fio scrambles with the time of day); scramble_buffers=0 and
# buffer_pattern write the same buffer throughout. iobench's refilled loops
# used to go on drawing (16 new blocks). docs/patterns.md ("Seeds"). Last: an
# explicit refill_buffers=0 is kept when compression or dedupe is asked for.
# $1: iobench binary, $2: source dir.
set -u
source "$2/tests/e2e/check.bash"   # fail, expect_eq
source "$2/tests/e2e/fio_side.bash" # tools, cmd
bin=$(realpath "$1")
tmp=$(mktemp -d /dev/shm/iobench_loop_buffers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# How loop 2's file relates to loop 1's: "same", "shift N" (block j is loop
# 1's block j-N, for every j >= N), "fresh" (no block of loop 1), or "other".
relation() {
  python3 - "$1" "$2" <<'PY'
import hashlib, sys
def blocks(p):
    d = open(p, "rb").read()
    return [hashlib.md5(d[i:i + 4096]).digest() for i in range(0, len(d), 4096)]
a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
if len(a) != 16 or len(b) != 16:
    print("size", len(a), len(b))
elif a == b:
    print("same")
elif not set(a) & set(b):
    print("fresh")
else:
    print(next((f"shift {s}" for s in range(1, 16) if b[s:] == a[:16 - s]), "other"))
PY
}

check() {  # want, name, options
  local want=$1 name=$2 t
  shift 2
  for t in $(tools); do
    for l in 1 2; do
      rm -f "f$l"
      "$(cmd "$t")" --name=j --filename="f$l" --rw=write --bs=4k --size=64k --loops=$l "$@" \
        --output=/dev/null 2>"err" || fail "$t $name loops=$l: $(head -3 err)"
    done
    expect_eq "$t $name" "$(relation f1 f2)" "$want"
  done
}

check "shift 1" refill --ioengine=libaio --refill_buffers=1
check "shift 4" "refill iodepth=4" --ioengine=libaio --iodepth=4 --refill_buffers=1
check "shift 4" "refill psync iodepth=4" --ioengine=psync --iodepth=4 --refill_buffers=1
check "shift 2" "compress 50% iodepth=2" --ioengine=libaio --iodepth=2 \
  --buffer_compress_percentage=50
check "shift 1" "dedupe 50%" --ioengine=libaio --dedupe_percentage=50
check "shift 1" "dedupe 50% working_set" --ioengine=libaio --dedupe_percentage=50 \
  --dedupe_mode=working_set
check fresh "refill randseed=7" --ioengine=libaio --refill_buffers=1 --randseed=7
check fresh "refill randrepeat=0" --ioengine=libaio --refill_buffers=1 --randrepeat=0
check fresh "scrambled (default)" --ioengine=libaio
check same "scramble_buffers=0" --ioengine=libaio --scramble_buffers=0
check same "buffer_pattern" --ioengine=libaio --buffer_pattern=0xdeadbeef

# An explicit refill_buffers=0 holds against buffer_compress_percentage and
# dedupe_percentage, which turn refilling on only when the option was not
# set (fio 3.33: 1 distinct 64k block of 4; iobench wrote 4, and 3).
distinct() {  # options: the number of distinct 64k blocks written
  local t=$1
  shift
  rm -f d.dat
  "$(cmd "$t")" --name=j --filename=d.dat --rw=write --bs=64k --size=256k --scramble_buffers=0 \
    "$@" --output=/dev/null 2>err || fail "$t distinct $*: $(head -3 err)"
  python3 -c 'import hashlib,sys; d=open("d.dat","rb").read(); print(len({hashlib.md5(d[i:i+65536]).digest() for i in range(0,len(d),65536)}))'
}
for t in $(tools); do
  expect_eq "$t compress 75% refill_buffers=0" \
    "$(distinct "$t" --buffer_compress_percentage=75 --refill_buffers=0)" 1
  expect_eq "$t compress 75% (refills)" "$(distinct "$t" --buffer_compress_percentage=75)" 4
  expect_eq "$t dedupe 50% refill_buffers=0" \
    "$(distinct "$t" --dedupe_percentage=50 --refill_buffers=0)" 1
done
[ "$fails" -eq 0 ]
