#!/bin/bash
# verify_only with loops: each loop reads back what that loop of the writer
# wrote, as the writer's verify phase after each pass does and as fio 3.33
# does (its verify_only goes through every loop's writes without issuing
# them, then verifies them). iobench ran one verify phase whatever loops
# said: loops=2 over 256 blocks read 256, fio 512.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
# reads WANT ARGS...: a write run (do_verify=1) then a verify_only run with
# the same options each read back WANT blocks.
reads() {
  local want=$1
  shift
  local job=(--name=w --filename="$f" --size=1M --bs=4k --verify=crc32c "$@")
  rm -f "$f" local-w-0-verify.state
  run "${job[@]}"
  [ "$rc" -eq 0 ] || fail "$*: write run: exit $rc"
  [ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = "$want" ] ||
    fail "$*: the write run read back $(jget 'doc["jobs"][0]["read"]["total_ios"]'), want $want"
  run "${job[@]}" --verify_only=1 --verify_state_save=0
  [ "$rc" -eq 0 ] || fail "$*: verify_only: exit $rc"
  [ "$(jget 'doc["jobs"][0]["write"]["total_ios"]')" = 0 ] || fail "$*: verify_only wrote"
  [ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = "$want" ] ||
    fail "$*: verify_only read $(jget 'doc["jobs"][0]["read"]["total_ios"]'), want $want"
}

# fio 3.33 reads the same counts in both runs of each of these.
reads 512 --rw=write --loops=2
reads 768 --rw=write --loops=3
reads 512 --rw=randwrite --loops=2
reads 512 --rw=randwrite --loops=2 --ioengine=io_uring --iodepth=8
reads 256 --rw=write --loops=2 --io_size=512k     # 128 per loop
reads 256 --rw=randwrite --loops=2 --io_size=512k
reads 200 --rw=write --loops=2 --number_ios=100   # number_ios x loops, all in one pass
# number_ios x loops counts the verify reads too (fio 3.33, writer and
# verify_only alike): 300 x 2 = 600 = 256 writes + 256 reads + 88 writes,
# then the 88 are read; with loops=3 (900) the second loop writes all 256
# and the third nothing. iobench's writer counted only the writes (512 and
# 768 reads), and its verify_only copied it.
reads 344 --rw=write --loops=2 --number_ios=300
reads 512 --rw=write --loops=3 --number_ios=300
reads 344 --rw=randwrite --loops=2 --number_ios=300
reads 344 --rw=randwrite --loops=3 --number_ios=200
reads 512 --rw=write --io_size=3m                 # verify reads count towards io_size
echo "ok: verify_only reads back each loop's writes"

# With verify_state_load (the record from the state file): again per loop.
reads 512 --rw=write --loops=2
run --name=w --filename="$f" --size=1M --bs=4k --verify=crc32c --rw=write --loops=2 \
  --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "verify_state_load: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 512 ] || fail "verify_state_load: reads"

# A bad block is found in each loop (the second loop really reads).
flip "$f" 13288
run --name=w --filename="$f" --size=1M --bs=4k --verify=crc32c --rw=write --loops=2 \
  --verify_only=1 --verify_state_save=0
[ "$rc" -eq 1 ] || fail "flipped byte: exit $rc, want 1"
[ "$(grep -c 'at offset 12288, length 4096' err.txt)" = 2 ] || fail "the bad block not found twice"
echo "ok: verify_only with verify_state_load and a bad block, per loop"

# A random writer whose io_size is above its size, checked with its state:
# the record (what all its passes left) is read once and the job ends. It
# used to start empty verify phases forever (100% CPU, no exit). fio 3.33
# reads 16 for the first.
state_once() {
  local want=$1
  shift
  local job=(--name=w --filename="$f" --size=64k --rw=randwrite --verify=crc32c "$@")
  rm -f "$f" local-w-0-verify.state
  run "${job[@]}"
  [ "$rc" -eq 0 ] || fail "$*: write run: exit $rc"
  "$bin" "${job[@]}" --verify_only=1 --verify_state_load=1 --output-format=json \
    >out.json 2>err.txt &
  local pid=$!
  local waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 200 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    wait "$pid"
    fail "$*: verify_only with the state did not end within 20 s"
  fi
  wait "$pid"
  rc=$?
  [ "$rc" -eq 0 ] || fail "$*: verify_only: exit $rc"
  local got
  got=$(jget 'doc["jobs"][0]["read"]["total_ios"]')
  [ -z "$want" ] || [ "$got" = "$want" ] || fail "$*: verify_only read $got, want $want"
  [ "$got" -gt 0 ] || fail "$*: verify_only read nothing"
}
state_once 16 --io_size=256k --bs=4k --norandommap --ioengine=psync
state_once "" --io_size=128k --loops=2 --bs=4k --norandommap
state_once "" --io_size=256k --bsrange=4k-16k --norandommap
state_once "" --io_size=256k --bs=4k --percentage_random=50
engine_ok io_uring && state_once 16 --io_size=256k --bs=4k --norandommap --ioengine=io_uring \
  --iodepth=8
echo "ok: verify_only with the state of a random writer past its size ends"
