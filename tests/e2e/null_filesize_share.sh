#!/usr/bin/env bash
# ioengine=null with filesize=F and size=N%: the region is N% of F, but the
# file stays F, as in fio 3.33 (whose null-engine file has no end at all:
# docs/running.md). So a holed walk ends at the region's end instead of
# wrapping: filesize=256k size=25% rw=write:4k writes 8 times (iobench used
# to wrap at 64 KiB and write 16 times; size=64k does 16 in both tools), and
# a strided walk goes past the region to the zones up to 960 KiB (iobench
# used to wrap at 512 KiB). The same jobs with psync on an existing file of
# F bytes do the same in both tools.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/iolog_compare.bash"

head -c 262144 /dev/zero >f256k
head -c 1048576 /dev/zero >f1m

# want (offsets in KiB), name, args.
check() { check_log "$1" "$2" --name=j "${@:3}"; }

zones() {  # offsets of 4 reads of 8k at the start of each 64 KiB zone below $1 KiB
  local z
  for ((z = 0; z < $1; z += 64)); do printf "%d %d %d %d " $z $((z + 8)) $((z + 16)) $((z + 24)); done
}

check "0 8 16 24 32 40 48 56 " "null write:4k size=25%" --ioengine=null --rw=write:4k --bs=4k \
  --filesize=256k --size=25%
check "0 8 16 24 32 40 48 56 64 72 80 88 96 104 112 120 " "null write:4k size=64k" \
  --ioengine=null --rw=write:4k --bs=4k --filesize=256k --size=64k
check "0 8 16 24 32 40 48 56 " "psync write:4k size=25%" --ioengine=psync --filename=f256k \
  --rw=write:4k --bs=4k --size=25%
strided=(--rw=read --bs=8k --size=50% --zonemode=strided --zonesize=32k --zonerange=64k)
check "$(zones 1024)" "null strided size=50%" --ioengine=null --filesize=1m "${strided[@]}"
check "$(zones 1024)" "psync strided size=50%" --ioengine=psync --filename=f1m "${strided[@]}"
check "$(zones 1024)" "psync strided filesize=1m size=50%" --ioengine=psync --filename=f1m \
  --filesize=1m "${strided[@]}"
# filesize= alone (no size= in bytes): the file has no end either, so a
# holed walk stops at the region's end instead of wrapping at 20k (iobench
# wrote 0 12 0 12 0), loops=2 repeat it, and a fixed block may pass 20k.
check "0 12 " "null write:8k filesize=20k" --ioengine=null --rw=write:8k --bs=4k --filesize=20k
check "0 12 0 12 " "null write:8k filesize=20k loops=2" --ioengine=null --rw=write:8k --bs=4k \
  --filesize=20k --loops=2
check "0 8 16 " "null write bs=8k filesize=20k" --ioengine=null --rw=write --bs=8k --filesize=20k
# With an offset too: the walk stops at the region's end (a sum with the
# offset overflowed and the walk wrapped: 4 12 20 28 8 16 24).
check "4 12 20 28 " "null write:4k filesize=32k offset=4k" --ioengine=null --rw=write:4k \
  --bs=4k --filesize=32k --offset=4k

[ "$fails" -eq 0 ] && echo "ok: the null engine's file is filesize= bytes, its region the share"
[ "$fails" -eq 0 ]
