#!/usr/bin/env bash
# zonemode=strided with a zone that is not a whole number of blocks: fio
# 3.33 issues a sequential I/O at any offset inside the zone (it may end past
# the zone) and starts the zone over only once the position reaches its end.
# iobench cut the zone to its whole blocks and read 0 0 6 6 12 12 ... where
# fio reads 0 4 6 10 12 16 .... A random job with the map whose zone runs
# out of blocks before zonesize bytes (not a multiple of zonerange) ends:
# fio reads once with zonesize=6k; iobench read 16 times.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"
source "$2/tests/e2e/iolog_compare.bash"

head -c 1048576 /dev/zero >data

# want (offsets in KiB, or n=COUNT for random jobs), name, args.
check() {
  check_log "$1" "$2" --name=z --filename=data --bs=4k --size=64k --zonemode=strided "${@:3}"
}

for engine in null psync; do
  for rw in read write; do
    check "0 4 6 10 12 16 18 22 24 28 30 34 36 40 42 46 " "$engine $rw 6k" --ioengine=$engine \
      --rw=$rw --zonesize=6k
  done
  check "0 4 8 10 14 18 20 24 28 30 34 38 40 44 48 50 " "$engine 12k/10k" --ioengine=$engine \
    --rw=read --zonesize=12k --zonerange=10k
  check "0 4 8 12 16 16.5 20.5 24.5 28.5 32.5 33 37 41 45 49 49.5 " "$engine 16.5k" \
    --ioengine=$engine --rw=read --zonesize=16896
  check "0 4 0 6 10 6 12 16 12 18 22 18 24 28 24 30 " "$engine 12k/6k" --ioengine=$engine \
    --rw=read --zonesize=12k --zonerange=6k
  check "n=1" "$engine randread 6k" --ioengine=$engine --rw=randread --zonesize=6k
  check "n=6" "$engine randread 12k/10k loops=3" --ioengine=$engine --rw=randread \
    --zonesize=12k --zonerange=10k --loops=3
  check "n=4" "$engine randwrite 16.5k" --ioengine=$engine --rw=randwrite --zonesize=16896
  check "n=16" "$engine randwrite 16.5k norandommap" --ioengine=$engine --rw=randwrite \
    --zonesize=16896 --norandommap
  check "n=16" "$engine randread 24k/12k" --ioengine=$engine --rw=randread --zonesize=24k \
    --zonerange=12k
done
[ "$fails" -eq 0 ]
