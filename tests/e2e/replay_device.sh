#!/usr/bin/env bash
# read_iolog onto a block device (docs/replay.md), a 16 MiB loop device with
# 512-byte sectors: size= does not size an existing device, as it does not
# size an existing file (size=32m replays an 8 KiB read, as fio does; it was
# refused as "region [0, 33554432) is beyond the end"), while the log's own
# offsets are still held to the device's end. Entries the device cannot
# take (direct=1 off its logical block, a trim off it) are refused before
# the run naming their line.
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

# --- entries the device cannot take are refused before the run, by line ---
# With direct=1 an offset or length off the 512-byte logical block, and a
# trim off it with or without direct=1 (a discard needs block-aligned
# ranges): exit 2 naming the log's line, with advice a replay can use. They
# failed at run time (err=22, no line, "set offset=, blockalign= ..."), and a
# length was refused as the job's "bs=1000 (read)"; the trim of a log that
# also read was not checked at all.
refused() {  # NAME WANT LOG ARGS...
  local name=$1 want=$2 lg=$3
  shift 3
  local out
  out=$("$bin" --name=r --read_iolog="$lg" --ioengine=psync "$@" 2>&1 >/dev/null)
  expect_eq "$name (exit)" "$?" 2
  case $out in *"$want"*) echo "ok   $name" ;; *) fail "$name: got '$out', want '$want'" ;; esac
}
log off.log "read 0 4096" "read 100 4096"
refused "direct=1, an offset off the block" \
  "off.log:5: read offset 100 is not a multiple of the logical block size 512 of $dev; direct=1 needs aligned I/O: set replay_align=512 (rounds the log's offsets down), or direct=0" \
  off.log --direct=1
log len.log "read 0 1000"
refused "direct=1, a length off the block" \
  "len.log:4: read length 1000 is not a multiple of the logical block size 512 of $dev; direct=1 needs aligned I/O: set replay_skip=read, or direct=0" \
  len.log --direct=1
log trim.log "read 0 4096" "trim 100 1000"
refused "a trim off the block" \
  "trim.log:5: trim length 1000 is not a multiple of the logical block size 512 of $dev; a discard needs block-aligned ranges: set replay_skip=trim" \
  trim.log
log trimoff.log "trim 512 512" "trim 100 512"
refused "a trim at an offset off the block" \
  "trimoff.log:5: trim offset 100 is not a multiple of the logical block size 512 of $dev; a discard needs block-aligned ranges: set replay_align=512" \
  trimoff.log
# The advice works: replay_align=512 replays the read at 0, and direct=0 or
# replay_skip=trim runs too.
for args in "off.log --direct=1 --replay_align=512" "off.log --direct=0" "trim.log --replay_skip=trim"; do
  # shellcheck disable=SC2086 # the words are arguments
  out=$("$bin" --name=r --ioengine=psync --read_iolog=$args 2>&1 >/dev/null) || fail "$args: $out"
done

[ "$fails" -eq 0 ]
