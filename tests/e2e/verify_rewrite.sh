#!/bin/bash
# A block written more than once in one pass is read back and checked once,
# for its latest write, as fio 3.33 keeps only the latest write of a block in
# its verify record (docs/verify.md, "What the run does"):
#  1. rw=write:4k over 64k wraps and writes every other block twice: 16
#     writes, 8 verify reads (iobench read 16); rw=write:-8k writes block 0
#     first and last: 15 reads (16); randwrite:4 with rw_sequencer=identical
#     reads each distinct offset once (it read each one 4 times);
#  2. a flipped byte in such a block is one failure, found by verify_only
#     (with and without verify_state_load) in 8 reads: total_err=1 (2 before);
#  3. plain rw=write and randwrite still read each write back (16 of 16).
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
base=(--name=w --filename="$f" --size=64k --bs=4k --verify=crc32c --ioengine=psync)

# wr ARGS...: a fresh write + verify; prints "error writes reads total_err".
wr() {
  rm -f "$f"
  run "${base[@]}" --verify_state_save=0 "$@"
  [ "$rc" -eq 0 ] || fail "$*: exit $rc"
  jget '"%d %d %d %d" % (doc["jobs"][0]["error"], doc["jobs"][0]["write"]["total_ios"], doc["jobs"][0]["read"]["total_ios"], doc["jobs"][0].get("total_err", 0))'
}

expect_eq "rw=write:4k" "$(wr --rw=write:4k)" "0 16 8 0"
expect_eq "rw=write:-8k" "$(wr --rw=write:-8k)" "0 16 15 0"
expect_eq "rw=write" "$(wr --rw=write)" "0 16 16 0"
expect_eq "rw=randwrite" "$(wr --rw=randwrite)" "0 16 16 0"

# randwrite:4 identical: as many reads as distinct offsets written.
rm -f "$f" wlog
run "${base[@]}" --verify_state_save=0 --rw=randwrite:4 --rw_sequencer=identical --write_iolog=wlog
[ "$rc" -eq 0 ] || fail "randwrite:4 identical: exit $rc"
distinct=$(awk '$2 == "write" || $3 == "write" { print ($2 == "write" ? $3 : $4) }' wlog | sort -u | wc -l)
reads=$(jget 'doc["jobs"][0]["read"]["total_ios"]')
[ "$distinct" -gt 0 ] && [ "$distinct" -lt 16 ] || fail "randwrite:4 identical: $distinct distinct offsets"
expect_eq "randwrite:4 rw_sequencer=identical: reads = distinct offsets" "$reads" "$distinct"

# The reproducer: block 8192 written twice, one byte flipped.
rm -f "$f" local-w-0-verify.state
run "${base[@]}" --rw=write:4k --do_verify=0
[ "$rc" -eq 0 ] || fail "writer: exit $rc"
flip "$f" 9000
for extra in "" "--verify_state_load=1"; do
  run "${base[@]}" --rw=write:4k --verify_only=1 --continue_on_error=verify $extra
  [ "$rc" -eq 0 ] || fail "verify_only $extra: exit $rc"
  expect_eq "verify_only $extra: total_err reads" \
    "$(jget '"%d %d" % (doc["jobs"][0].get("total_err", 0), doc["jobs"][0]["read"]["total_ios"])')" "1 8"
  expect_eq "verify_only $extra: failures printed" "$(grep -c 'offset 8192' err.txt)" 1
done

[ "$fails" -eq 0 ]
