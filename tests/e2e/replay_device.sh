#!/usr/bin/env bash
# read_iolog onto a block device (docs/replay.md), a 16 MiB loop device with
# 512-byte sectors: size= does not size an existing device, as it does not
# size an existing file (size=32m replays an 8 KiB read, as fio does; it was
# refused as "region [0, 33554432) is beyond the end"), while the log's own
# offsets are still held to the device's end.
# Root only; exit 77 (skip) without losetup. The device goes at exit.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: no losetup"; exit 77; }
scratch_loop 16m 512
dev=$loop

log() {  # FILE LINE...: a version 2 log of the lines on $dev
  local f=$1
  shift
  { echo 'fio version 2 iolog'; echo "$dev add"; echo "$dev open"
    for l in "$@"; do echo "$dev $l"; done; echo "$dev close"; } >"$f"
}

# --- size= larger than the device: the device keeps its size ---
log te2.log "read 0 8192"
out=$("$bin" --name=r --read_iolog=te2.log --ioengine=psync --size=32m --output-format=json 2>&1)
expect_eq "size=32m on a 16 MiB device replays (exit)" "$?" 0
expect_eq "size=32m on a 16 MiB device replays the read" \
  "$(python3 -c 'import json,sys; j=json.loads(sys.stdin.read())["jobs"][0]; print(j["read"]["total_ios"], j["read"]["io_bytes"])' <<<"$out" 2>/dev/null)" \
  "1 8192"
# The log's offsets are still checked against the device's end.
log past.log "read 16773120 8192"
out=$("$bin" --name=r --read_iolog=past.log --ioengine=psync --size=32m 2>&1 >/dev/null)
expect_eq "a read past the device's end (exit)" "$?" 2
case $out in
  *"past.log:4: an I/O ends at byte 16781312, past the end of $dev (16777216 bytes)"*) echo "ok   past the device's end" ;;
  *) fail "past the device's end: $out" ;;
esac

[ "$fails" -eq 0 ]
