#!/usr/bin/env bash
# zonemode=strided on a block device whose size= is above the device's: in
# a strided job size is how many bytes to transfer, and the zone walk goes
# from the offset to the device's end and starts over, as in fio 3.33. fio
# runs such jobs; iobench refused them ("region [0, 2097152) is beyond the
# end of /dev/loopN"). Offsets checked against fio's write_iolog.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device)"; exit 77; }
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
loop=""
trap '[ -n "$loop" ] && losetup -d "$loop"; cd /; rm -rf "$tmp"' EXIT
truncate -s 1000k img
loop=$(losetup -f --show img 2>/dev/null) || { loop=""; echo "skip: no loop device"; exit 77; }

offsets() { awk '$3 == "write" { printf "%d ", $4 / 1024 } END { print "" }' "$1"; }
# The walk of 16 KiB zones every 64 KiB from KiB $1 to the device's end
# (1000 KiB), $2 KiB of it.
walk() {
  local from=$1 left=$2 z
  while :; do
    for ((z = from; z < 1000; z += 64)); do
      for ((b = z; b < z + 16 && b + 4 <= 1000; b += 4)); do
        [ "$left" -le 0 ] && { echo; return; }
        printf "%d " "$b"
        left=$((left - 4))
      done
    done
  done
}
check() {  # NAME WANT ARGS...
  local name=$1 want=$2 tool
  shift 2
  for tool in $(tools); do
    rm -f "$tool.log"
    "$(cmd "$tool")" --name=j --filename="$loop" --rw=write --bs=4k --ioengine=psync \
      --zonemode=strided --zonesize=16k --zonerange=64k --write_iolog="$tool.log" \
      --output=/dev/null "$@" >/dev/null 2>"$tool.err" || fail "$name: $tool: exit $?: $(cat "$tool.err")"
    [ -s "$tool.err" ] && fail "$name: $tool: stderr: $(cat "$tool.err")"
  done
  expect_eq "$name: offsets (KiB)" "$(offsets iob.log)" "$want"
  fio_side && expect_eq "$name: offsets as fio's" "$(offsets iob.log)" "$(offsets fio.log)"
}
check "size=2m over 1000 KiB" "$(walk 0 2048)" --size=2m
check "offset=600k size=500k" "$(walk 600 500)" --offset=600k --size=500k
# A walk that starts past the end is still refused.
work=$tmp
expect_run "offset past the end" 2 "beyond the end of $loop" -- \
  "$bin" --name=j --filename="$loop" --rw=write --bs=4k --zonemode=strided --zonesize=16k \
  --offset=1000k --size=64k
[ "$fails" -eq 0 ]
