#!/bin/bash
# No false positives where fio users report them: io_uring at iodepth 32 with
# norandommap random overwrites (several writes to one block in flight at
# once), verify_backlog batches interleaved with writes, and loops; also
# time_based (fio 3.33: the verify read phase never starts, with a warning).
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

eng=io_uring
engine_ok io_uring || eng=libaio
engine_ok $eng || { echo "skip: neither io_uring nor libaio is usable"; exit 77; }
f="$tmp/data"

# 256 blocks, 3 x 256 random writes with repeats, 32 in flight.
run --name=q --ioengine=$eng --filename="$f" --size=1M --bs=4k --rw=randwrite --norandommap \
  --iodepth=32 --loops=3 --verify=crc32c --verify_state_save=0
[ "$rc" -eq 0 ] || fail "$eng QD32 norandommap: exit $rc"
[ "$(jget 'doc["jobs"][0]["write"]["total_ios"]')" = 768 ] || fail "write count"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" -gt 0 ] || fail "nothing verified"
echo "ok: $eng QD32 norandommap overwrites verify clean"

# fio 3.33: a random writer without a random map writes all of io_size
# before it verifies (size does not end its pass): 375 writes of 4k for
# io_size=1500k over 1 MiB, then each distinct block read back once (iobench
# verified after 256 writes and stopped there, the reads counting to io_size).
run --name=q --filename="$f" --size=1M --io_size=1500k --bs=4k --rw=randwrite --norandommap \
  --verify=crc32c --verify_state_save=0
[ "$rc" -eq 0 ] || fail "norandommap io_size: exit $rc"
[ "$(jget 'doc["jobs"][0]["write"]["io_bytes"]')" = 1536000 ] || fail "norandommap io_size: writes"
[ "$(jget '0 < doc["jobs"][0]["read"]["total_ios"] <= 256')" = True ] ||
  fail "norandommap io_size: each block read back once"
echo "ok: norandommap writes io_size before verifying"

for direct in 0 1; do
  run --name=q --ioengine=$eng --filename="$f" --size=1M --bs=4k --rw=randwrite --norandommap \
    --iodepth=32 --loops=4 --direct=$direct --verify=crc32c --verify_backlog=16 \
    --verify_backlog_batch=16 --verify_state_save=0
  [ "$rc" -eq 0 ] || fail "$eng QD32 backlog direct=$direct: exit $rc"
  [ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" -gt 0 ] || fail "backlog read nothing"
done
echo "ok: verify_backlog at QD32 verifies clean"

# Sequential loops: each pass is verified (fio verifies after each loop).
run --name=q --filename="$f" --size=256k --bs=4k --rw=write --loops=2 --verify=md5 \
  --verify_state_save=0
[ "$rc" -eq 0 ] || fail "loops=2: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 128 ] || fail "loops=2: want 2 x 64 reads"
echo "ok: each loop is verified"

# time_based: warning on stderr, no verify reads.
run --name=q --filename="$f" --size=256k --bs=4k --rw=write --time_based --runtime=1 \
  --verify=crc32c --verify_state_save=0
[ "$rc" -eq 0 ] || fail "time_based: exit $rc"
grep -q "^iobench: warning: verify: job .*verify read phase never starts" err.txt ||
  fail "time_based: no warning: $(cat err.txt)"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 0 ] || fail "time_based: verify ran"
# With verify_backlog the writes are checked while writing: a note in the
# report, nothing on stderr (it advised the option already set).
run --name=q --filename="$f" --size=256k --bs=4k --rw=write --time_based --runtime=1 \
  --verify=crc32c --verify_state_save=0 --verify_backlog=16
[ "$rc" -eq 0 ] || fail "time_based backlog: exit $rc"
[ -s err.txt ] && fail "time_based backlog: stderr: $(cat err.txt)"
grep -q "verify_backlog=16 checks the writes while writing" out.json ||
  fail "time_based backlog: no note"
echo "all ok"
