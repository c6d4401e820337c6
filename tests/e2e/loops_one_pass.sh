#!/usr/bin/env bash
# loops > 1 of a random job whose passes end by bytes (rw=randxxx:N,
# percentage_random, norandommap, a non-uniform distribution), with an engine
# that completes each I/O inside its queue call (null, psync): fio 3.33 runs
# the loops as one pass of size x loops bytes, since its do_io counts an I/O
# towards the loop's size only when the engine queued it. So rw=randread:3
# goes on with its run of 3 where the first size bytes ended (measured with
# write_iolog: one open, no jump at the loop boundary), and norandommap does
# not draw loop 1's offsets again. A queueing engine (libaio) ends each loop
# at size bytes, and the next starts its sequential run at the region start.
# iobench used to end every loop at size bytes (a jump at I/O 64 below).
# $1: iobench binary, $2: source dir.
set -u
source "$2/tests/e2e/check.bash"
bin=$(realpath "$1")
tmp=$(mktemp -d /dev/shm/iobench_loops_one_pass.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# Offsets (in 4k blocks) of a log's reads and writes, one a line.
blocks() { awk '$3 == "read" || $3 == "write" { print $4 / 4096 }' "$1"; }
opens() { grep -c ' open$' "$1"; }
# The I/Os of a rw=randxxx:3 log that start a new run where fio would not:
# a jump (not the previous block + 1) at an index that is not a multiple of
# 3, unless the previous I/O was at the region's last block (a sequential
# I/O past the end falls back to a random offset, in fio too).
stray_jumps() {  # log, last block
  blocks "$1" | awk -v last="$2" 'NR > 1 && $1 != prev + 1 && (NR - 1) % 3 != 0 && prev != last {
      printf "%d ", NR - 1 } { prev = $1 }'
}

# 256k = 64 blocks, loops=2: 128 I/Os; I/O 64 is the second of a run of 3.
for engine in null psync; do
  rm -f n.log
  "$bin" --name=j --ioengine="$engine" --filename="$tmp/f" --size=256k --bs=4k \
    --rw=randread:3 --loops=2 --randseed=7 --write_iolog=n.log --output=/dev/null ||
    fail "$engine: iobench"
  expect_eq "$engine rw=randread:3 loops=2: I/Os" "$(blocks n.log | wc -l)" 128
  expect_eq "$engine: opens (one pass)" "$(opens n.log)" 1
  expect_eq "$engine: runs of 3 across the loop boundary (stray jumps)" "$(stray_jumps n.log 63)" ""
done

rm -f w.log
"$bin" --name=j --ioengine=psync --filename="$tmp/f" --size=256k --bs=4k --rw=randwrite:3 \
  --loops=3 --randseed=7 --write_iolog=w.log --output=/dev/null || fail "randwrite: iobench"
expect_eq "psync rw=randwrite:3 loops=3: I/Os" "$(blocks w.log | wc -l)" 192
expect_eq "randwrite: stray jumps" "$(stray_jumps w.log 63)" ""

# norandommap, randrepeat=1: one pass whose draws go on (fio: loop 1's
# offsets do not come again, 1 open).
rm -f m.log
"$bin" --name=j --ioengine=null --size=256k --bs=4k --rw=randread --norandommap --loops=2 \
  --write_iolog=m.log --output=/dev/null || fail "norandommap: iobench"
expect_eq "null norandommap loops=2: opens" "$(opens m.log)" 1
if cmp -s <(blocks m.log | head -64) <(blocks m.log | tail -64); then
  fail "norandommap: the second 64 I/Os repeat the first"
fi

# A queueing engine: two loops, the second starts its run at block 0.
rm -f q.log
if "$bin" --name=j --ioengine=libaio --iodepth=4 --filename="$tmp/f" --size=256k --bs=4k \
  --rw=randread:3 --loops=2 --randseed=7 --write_iolog=q.log --output=/dev/null 2>/dev/null; then
  expect_eq "libaio rw=randread:3 loops=2: opens" "$(opens q.log)" 2
  expect_eq "libaio: loop 2 starts at block 0" "$(blocks q.log | sed -n 65p)" 0
else
  echo "skip: no libaio"
fi

# fio 3.33 itself, when installed: the same shape.
if command -v fio >/dev/null && fio --version | grep -q '^fio-3\.33'; then
  rm -f fio.log "$tmp/f"
  fio --name=j --ioengine=psync --filename="$tmp/f" --size=256k --bs=4k --rw=randread:3 \
    --loops=2 --randseed=7 --write_iolog=fio.log --output=/dev/null || fail "fio"
  expect_eq "fio psync rw=randread:3 loops=2: opens" "$(opens fio.log)" 1
  expect_eq "fio: stray jumps" "$(stray_jumps fio.log 63)" ""
fi
[ "$fails" -eq 0 ]
