#!/usr/bin/env bash
# zonemode=strided with a holed sequential walk (rw=read:28k): fio 3.33
# goes back to the zone's start only once the last I/O ended at or past the
# zone's end, so it steps past the end (0 32 64, then 0), and a step past the
# end of the file ends the pass: 14 reads on 256 KiB. iobench wrapped before
# the step (0 32 0 32 ...) and walked the file 4 times, 64 reads; the same
# with psync on a file. rw=write:4k bs=512 size=4m zonesize=16k
# zonerange=128k: fio 1021 writes (iobench 8192). With zonesize above
# zonerange fio starts the zone over at each multiple of zonerange issued.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/iolog_compare.bash"

head -c 262144 /dev/zero >f256k
zone=(--bs=4k --zonemode=strided --zonesize=16k --zonerange=64k)
for engine in null psync; do
  check_log "0 32 64 0 64 96 128 64 128 160 192 128 192 224 " "$engine read:28k" --name=j \
    --ioengine=$engine --filename=f256k --size=256k --rw=read:28k "${zone[@]}"
  check_log "0 32 64 0 96 128 160 96 192 224 " "$engine read:28k zoneskip=32k" --name=j \
    --ioengine=$engine --filename=f256k --size=256k --rw=read:28k --zoneskip=32k "${zone[@]}"
done
# zonesize above zonerange: the walk starts over at the zone's start at
# every multiple of zonerange issued there (fio resets the file then), not
# only when it reaches the zone's end (iobench: 0 4 0 4 0 4 0 4).
check_log "0 4 0 0 4 0 0 4 6 10 6 6 10 6 6 10 " "zonesize=32k zonerange=6k" --name=j \
  --ioengine=psync --filename=f256k --size=64k --rw=read --bs=4k --zonemode=strided \
  --zonesize=32k --zonerange=6k
check_log n=1021 "write:4k bs=512 zonerange=128k" --name=j --ioengine=null --size=4m \
  --rw=write:4k --bs=512 --zonemode=strided --zonesize=16k --zonerange=128k

[ "$fails" -eq 0 ] && echo "ok: holed strided walks step past the zone's end as fio"
[ "$fails" -eq 0 ]
