#!/usr/bin/env bash
# verify_backlog: every written block is read back exactly once, whatever
# verify_backlog_batch is (fio 3.33 reads 4 MiB back after 4 MiB written with
# batch 8, 32 and 64); the blocks a batch checked are not read again by the
# pass after the writes.
set -u
bin=$1
tmp=$(mktemp -d /var/tmp/iobench_vbacklog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for engine in psync libaio; do
  # rw=randwrite too (fio's t0006): its pass after the writes replays the
  # random pattern, and used to read back the batches' blocks again (8 MiB).
  for spec in write:8 write:32 write:64 randwrite:32; do
    rw=${spec%:*} batch=${spec#*:}
    "$bin" --name=v --ioengine=$engine --iodepth=4 --rw=$rw --verify=md5 --verify_backlog=32 \
      --verify_backlog_batch=$batch --size=4m --bs=4k --filename="$tmp/f" \
      --output-format=json >"$tmp/o.json" || fail "$engine $rw batch $batch: exit $?"
    python3 - "$tmp/o.json" <<'PY' || fail "$engine $rw batch $batch: bytes"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["error"] == 0, j["error"]
assert j["write"]["io_bytes"] == 4 << 20, j["write"]["io_bytes"]
assert j["read"]["io_bytes"] == 4 << 20, ("read back", j["read"]["io_bytes"])
PY
  done
done
# rw=randwrite with norandommap rewrites some blocks: still one read per
# block written last (the verify pass covers what the backlog did not).
"$bin" --name=v --ioengine=psync --rw=randwrite --norandommap --verify=crc32c --verify_backlog=16 \
  --verify_backlog_batch=4 --size=1m --bs=4k --filename="$tmp/r" --output-format=json \
  >"$tmp/r.json" || fail "randwrite: exit $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["error"]==0, j' \
  "$tmp/r.json" || fail "randwrite: error"
# do_verify=0 turns verify_backlog off as well: fio 3.33 reads nothing back.
"$bin" --name=v --ioengine=psync --rw=write --verify=crc32c --verify_backlog=16 --do_verify=0 \
  --verify_state_save=0 --size=1m --bs=4k --filename="$tmp/d" --output-format=json \
  >"$tmp/d.json" || fail "do_verify=0: exit $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["read"]["io_bytes"]==0, j["read"]' \
  "$tmp/d.json" || fail "do_verify=0 with verify_backlog read back"
echo ok
