#!/usr/bin/env bash
# zonemode=strided with a last zone cut short by the end of the file: fio
# 3.33 walks it as a whole zone and the first I/O that would end past the
# file ends the pass (the file is done). iobench read the 4 KiB tail at 96k
# zonesize/bs times in a row and went on: 24 reads where fio makes 9.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"
source "$2/tests/e2e/iolog_compare.bash"

walk="0 4 8 12 48 52 56 60 96 "

# args, then what iobench must log: offsets (KiB) or, for random jobs, a count.
check() {
  local want=$1 name=$2
  shift 2
  local tool
  for tool in $(tools); do
    rm -rf d "$tool.log" && mkdir d
    "$(cmd "$tool")" --name=j --directory=d --bs=4k --zonemode=strided --zonesize=16k \
      --zonerange=48k --write_iolog="$tool.log" --output=/dev/null "$@" >/dev/null 2>"$tool.err" ||
      fail "$name: $tool failed: $(cat "$tool.err")"
  done
  expect_log "$want" "$name"
}

for engine in psync null; do
  for rw in read write; do
    check "$walk" "$engine $rw" --ioengine=$engine --rw=$rw --size=96k --filesize=100k
  done
  check "$walk$walk" "$engine loops=2" --ioengine=$engine --rw=read --size=96k --filesize=100k \
    --loops=2
  # One stream of size x loops bytes: each end of the file starts it over.
  check "$walk${walk}0 4 8 12 48 52 " "$engine size=32k loops=3" --ioengine=$engine --rw=read \
    --size=32k --filesize=100k --loops=3
  check "$walk$walk$walk$walk${walk}0 4 8 12 48 " "$engine io_size=200k" --ioengine=$engine \
    --rw=read --size=96k --filesize=100k --io_size=200k
  # Blocks larger than the tail: the pass ends on reaching it.
  check "0 8 48 56 0 8 48 56 " "$engine bs=8k loops=2" --ioengine=$engine --rw=read \
    --size=100k --filesize=100k --bs=8k --loops=2
  # Random offsets within the whole zone: the first past the end ends it;
  # never past the end, never more than the two whole zones and the tail.
  check "n=8" "$engine randread" --ioengine=$engine --rw=randread --size=96k --filesize=100k \
    --randseed=1
  awk '$3 == "read" && $4 + $5 > 102400 { bad = 1 } END { exit bad }' iob.log ||
    fail "$engine randread: an I/O past the end of the file"
done
[ "$fails" -eq 0 ]
