#!/bin/bash
# A holed walk (rw=read:4k) whose region ends at its file's end wraps there
# and never ends by itself; fio 3.33's do_io counts a loop's bytes only for
# I/Os the engine queued, so with an engine that completes in its call
# (psync, null) its loops run as one walk of io_size (or size) x loops bytes,
# the file opened once; a queueing engine (libaio) ends each loop after
# size bytes and reopens. A walk that stops short of the wrap (a region
# smaller than the file) still ends each loop. Expected sequences are fio
# 3.33's write_iolog: open/close and the offsets in KiB, in order. The same
# for filesize= with a smaller size=, whose passes end by size bytes.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

head -c 1m /dev/zero >big

# run TOOL ENGINE FILE OPTIONS...: "o" for an open, "c" for a close, the
# offset in KiB for a read or write.
run() {
  local tool=$1 engine=$2 file=$3
  shift 3
  rm -f "$tmp/x.log"
  [ "$file" = new ] && rm -f "$tmp/new"
  "$(cmd "$tool")" --name=j --ioengine="$engine" --filename="$file" --bs=4k "$@" \
    --write_iolog="$tmp/x.log" --output-format=json >/dev/null 2>"$tmp/err.txt" ||
    { echo "failed: $(cat "$tmp/err.txt")"; return; }
  awk '$3 == "open" { printf "o " } $3 == "close" { printf "c " }
    ($3 == "read" || $3 == "write") && NF == 5 { printf "%d ", $4 / 1024 }' "$tmp/x.log"
}

w4="0 8 16 24"
# psync: one walk of io_size x loops = 80k (was two passes of size: 16 reads).
check "psync io_size loops" "o $w4 $w4 $w4 $w4 $w4 c " psync new --rw=read:4k --size=32k \
  --io_size=40k --loops=2
check "psync io_size loops=3" "o $w4 $w4 $w4 $w4 $w4 $w4 $w4 0 8 c " psync new --rw=read:4k \
  --size=32k --io_size=40k --loops=3
check "psync write io_size loops" "o $w4 $w4 $w4 $w4 $w4 c " psync new --rw=write:4k --size=32k \
  --io_size=40k --loops=2
# size=30k: 7.5 blocks a loop; the walk goes on across the loop boundary.
check "psync size loops" "o $w4 $w4 $w4 0 8 16 c " psync new --rw=read:4k --size=30k --loops=2
# null: the same.
check "null io_size loops" "o $w4 $w4 $w4 $w4 $w4 c " null new --rw=read:4k --size=32k \
  --io_size=40k --loops=2
# libaio queues: a loop of size bytes each, reopened (unchanged).
check "libaio io_size loops" "o $w4 $w4 c o $w4 $w4 c " libaio new --rw=read:4k --size=32k \
  --io_size=40k --loops=2
# A region that ends before the file's end: each loop stops there (unchanged).
check "psync short region" "o $w4 c o $w4 c o $w4 c " psync big --rw=read:4k --size=32k \
  --io_size=40k --loops=2
# filesize= with a smaller size=: size is the job's bytes per pass. A
# queueing engine ends each loop there and starts over at 0 (iobench walked
# on: 0 12 24 36 48 60 with libaio; io_size=60k read 10 blocks, fio 6); psync
# walks on, one walk of size x loops bytes.
f12="--bs=12k --filesize=128k --size=36k"
check "libaio filesize size loops" "o 0 12 24 c o 0 12 24 c " libaio new --rw=read $f12 --loops=2
check "libaio filesize size io_size" "o 0 12 24 c o 0 12 24 c " libaio new --rw=read $f12 \
  --loops=2 --io_size=60k
check "libaio filesize size io_size<size" "o 0 12 24 c o 0 c " libaio new --rw=read $f12 \
  --loops=2 --io_size=24k
check "psync filesize size loops" "o 0 12 24 36 48 60 c " psync new --rw=read $f12 --loops=2
# counts NAME OP N OPENS OPTIONS...: with each tool, the job's write_iolog
# holds N lines of OP (read, write) and OPENS opens of its files.
counts() {
  local name=$1 op=$2 n=$3 opens=$4 t
  shift 4
  for t in $(tools); do
    rm -f "$tmp/new" "$tmp"/j.0.*
    "$(cmd "$t")" --name=j "$@" --write_iolog="$tmp/y.log" --output-format=json >/dev/null \
      2>"$tmp/err.txt" || fail "$t $name: $(cat "$tmp/err.txt")"
    expect_eq "$t $name: ${op}s" "$(grep -c " $op " "$tmp/y.log")" "$n"
    expect_eq "$t $name: opens" "$(grep -c ' open$' "$tmp/y.log")" "$opens"
    rm -f "$tmp/y.log"
  done
}
# The same with a random map: two passes of 64k, 16 writes (iobench's fast
# map step ended its pass only when the map was full: 2 x 12 writes).
counts "random map" write 16 2 --ioengine=libaio --filename=new --rw=randwrite --bs=8k \
  --filesize=100k --size=64k --io_size=100k --loops=2
# The LFSR generator too: 2 x 3 reads of 12k with a reopen between (its
# pass ended only with the register's cycle: 6 reads in one).
counts lfsr read 6 2 --ioengine=libaio --filename=new --rw=randread --bs=12k --filesize=128k \
  --size=36k --loops=2 --random_generator=lfsr
# Two files, round robin: one walk over both, 20 reads each (was 10 and 10 in two passes).
counts "two files" read 40 2 --ioengine=psync --bs=4k --rw=read:4k --size=64k --nrfiles=2 \
  --io_size=80k --loops=2
[ "$fails" -eq 0 ]
