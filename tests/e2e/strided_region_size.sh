#!/usr/bin/env bash
# zonemode=strided with a zonerange or zonesize above size=: fio 3.33 never
# issues an I/O whose offset inside the zone reaches size (get_next_offset
# fails and the file is done until the next loop), and each loop starts at
# the first zone. iobench walked on past offset + size: rw=write size=8k
# zonesize=16k zonerange=20k loops=2 wrote 0 4k 8k 12k where fio writes
# 0 4k 0 4k (on a device, data where the user did not ask).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"
source "$2/tests/e2e/iolog_compare.bash"

# args, then what iobench must log: offsets (KiB).
check() {
  local want=$1 name=$2
  shift 2
  local tool
  for tool in $(tools); do
    rm -f F "$tool.log" && truncate -s 1M F
    "$(cmd "$tool")" --name=j --filename=F --bs=4k --zonemode=strided --write_iolog="$tool.log" \
      --output=/dev/null "$@" >/dev/null 2>"$tool.err" ||
      fail "$name: $tool failed: $(cat "$tool.err")"
  done
  expect_log "$want" "$name"
}

check "0 4 0 4 " "write loops=2" --ioengine=psync --rw=write --size=8k --zonesize=16k \
  --zonerange=20k --loops=2
check "0 4 0 4 0 4 " "read loops=3" --ioengine=psync --rw=read --size=8k --zonesize=16k \
  --zonerange=18k --loops=3
check "0 4 0 4 " "zonerange=zonesize" --ioengine=psync --rw=read --size=8k --zonesize=16k --loops=2
check "64 68 64 68 " "offset=64k" --ioengine=psync --rw=read --offset=64k --size=8k \
  --zonesize=16k --zonerange=20k --loops=2
check "0 4 0 4 0 4 0 4 " "io_size=32k" --ioengine=psync --rw=read --size=8k --zonesize=16k \
  --zonerange=20k --io_size=32k
check "0 4 0 4 0 4 " "zoneskip loops=3" --ioengine=psync --rw=write --size=8k --zonesize=16k \
  --zonerange=20k --zoneskip=16k --loops=3
# Cases that already matched: a zone larger than size does not stop the walk
# across the file (fio's neither), and psync's loops are one walk.
walk="0 4 8 12 128 132 136 140 256 260 264 268 384 388 392 396 "
check "${walk}512 516 520 524 640 644 648 652 768 772 776 780 896 900 904 908 " \
  "zonerange=128k loops=2" --ioengine=psync --rw=read --size=64k \
  --zonesize=16k --zonerange=128k --loops=2
# A queueing engine: a pass per loop, each from the first zone (iobench's
# second loop went on at 512k).
check "$walk$walk" "libaio loops=2" --ioengine=libaio --iodepth=2 --rw=read --size=64k \
  --zonesize=16k --zonerange=128k --loops=2
check "0 4 0 4 " "libaio zonerange=20k loops=2" --ioengine=libaio --iodepth=2 --rw=read \
  --size=8k --zonesize=16k --zonerange=20k --loops=2
# Random offsets: never at or past size inside a zone (counts vary by seed
# in both tools).
for seed in 1 2 3; do
  check_log_bounds() {
    awk -v lim=8192 '$3 == "read" && $4 % 20480 >= lim { bad = 1 } END { exit bad }' iob.log ||
      fail "randread seed $seed: an offset at or past size inside its zone"
  }
  rm -f F iob.log && truncate -s 1M F
  "$bin" --name=j --filename=F --bs=4k --zonemode=strided --ioengine=psync --rw=randread \
    --size=8k --zonesize=16k --zonerange=20k --loops=2 --randseed=$seed --write_iolog=iob.log \
    --output=/dev/null >/dev/null 2>iob.err || fail "randread seed $seed: $(cat iob.err)"
  check_log_bounds
done
[ "$fails" -eq 0 ]
