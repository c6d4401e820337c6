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
# loops: each loop's verify phase reads what its backlog batches left and
# empties the backlog, so the next loop's batches start afresh. iobench kept
# the leftovers (256 mod 100 = 56 blocks) and read them again in the next
# loop: loops=2 gave 568 reads for 512 writes, loops=3 836 for 768 (fio
# 3.33: as many reads as writes, with a backlog that divides the block
# count or not; verify_async and the async engines the same).
for spec in psync:write:100:2 psync:randwrite:100:3 psync:write:64:3 libaio:randwrite:100:2 \
  libaio:write:100:3:--verify_async=2 psync:randwrite:64:2:--verify_backlog_batch=16; do
  IFS=: read -r engine rw backlog loops extra <<<"$spec"
  "$bin" --name=v --ioengine=$engine --iodepth=4 --rw=$rw --verify=crc32c \
    --verify_backlog=$backlog --loops=$loops ${extra:+"$extra"} --size=1m --bs=4k \
    --filename="$tmp/l" --verify_state_save=0 --output-format=json >"$tmp/l.json" ||
    fail "$spec: exit $?"
  python3 - "$tmp/l.json" "$loops" <<'PY' || fail "$spec: each written block read back once"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["error"] == 0, j["error"]
w, r = j["write"]["total_ios"], j["read"]["total_ios"]
assert w == 256 * int(sys.argv[2]), ("writes", w)
assert r == w, ("reads", r, "writes", w)
PY
done
# The order fio 3.33 issues (write_iolog, the same in both tools): in each
# loop, 100 writes, their 100 reads, 100 more and theirs, then the last 56
# written and the verify phase's 56 reads. The second loop's first batch
# came after 44 writes.
rm -f "$tmp/l"
"$bin" --name=v --ioengine=psync --rw=write --verify=crc32c --verify_backlog=100 --loops=2 \
  --size=1m --bs=4k --filename="$tmp/l" --verify_state_save=0 --write_iolog="$tmp/l.log" \
  >/dev/null || fail "iolog run: exit $?"
runs=$(awk '$3 == "read" || $3 == "write" {print $3}' "$tmp/l.log" | uniq -c | awk '{printf "%s%s ", $1, substr($2, 1, 1)}')
want="100w 100r 100w 100r 56w 56r 100w 100r 100w 100r 56w 56r "
[ "$runs" = "$want" ] || fail "loops=2 verify_backlog=100 order: $runs (want $want)"
# rw=randwrite with norandommap rewrites some blocks: still one read per
# block written last (the verify pass covers what the backlog did not).
"$bin" --name=v --ioengine=psync --rw=randwrite --norandommap --verify=crc32c --verify_backlog=16 \
  --verify_backlog_batch=4 --size=1m --bs=4k --filename="$tmp/r" --output-format=json \
  >"$tmp/r.json" || fail "randwrite: exit $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["error"]==0, j' \
  "$tmp/r.json" || fail "randwrite: error"
# A block written twice since the last batch is read once (fio drops the
# older write from its backlog): fewer reads than writes (iobench read each
# write of the batch, 256; fio 3.33 reads 249 to 253).
"$bin" --name=v --ioengine=psync --rw=randwrite --norandommap --verify=crc32c --verify_backlog=16 \
  --size=1m --bs=4k --filename="$tmp/r" --verify_state_save=0 --output-format=json \
  >"$tmp/r.json" || fail "randwrite norandommap batch 16: exit $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["error"]==0 and j["read"]["total_ios"]<j["write"]["total_ios"]==256, (j["read"]["total_ios"], j["write"]["total_ios"])' \
  "$tmp/r.json" || fail "randwrite norandommap: a block written twice was read back twice"
# do_verify=0 turns verify_backlog off as well: fio 3.33 reads nothing back.
"$bin" --name=v --ioengine=psync --rw=write --verify=crc32c --verify_backlog=16 --do_verify=0 \
  --verify_state_save=0 --size=1m --bs=4k --filename="$tmp/d" --output-format=json \
  >"$tmp/d.json" || fail "do_verify=0: exit $?"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["read"]["io_bytes"]==0, j["read"]' \
  "$tmp/d.json" || fail "do_verify=0 with verify_backlog read back"
# verify_backlog_batch below or above verify_backlog: fio 3.33's order
# (write_iolog, the same in both tools on psync and libaio, write and
# randwrite): a batch starts when the pending writes are a multiple of the
# backlog and reads verify_backlog_batch of them; the rest wait for the next
# batch, after that many more writes. iobench read one batch per backlog
# and left the rest to the verify phase: 16w 4r 16w 4r ... 16w 196r.
order() {  # order ARGS...: the iolog's runs of reads and writes, "16w 4r ..."
  rm -f "$tmp/o" "$tmp/o.log"
  "$bin" --name=v --filename="$tmp/o" --verify=crc32c --bs=4k --verify_state_save=0 \
    --write_iolog="$tmp/o.log" "$@" >/dev/null || fail "$*: exit $?"
  awk '$3 == "read" || $3 == "write" {print $3}' "$tmp/o.log" | uniq -c |
    awk '{printf "%s%s ", $1, substr($2, 1, 1)}'
}
rep() { local i; for ((i = 0; i < $1; i++)); do printf '%s' "$2"; done; }
want="16w $(rep 60 '4r 4w ')16r "
for engine in psync libaio; do
  for rw in write randwrite; do
    got=$(order --ioengine=$engine --iodepth=4 --rw=$rw --size=1m --verify_backlog=16 \
      --verify_backlog_batch=4)
    [ "$got" = "$want" ] || fail "$engine $rw backlog 16 batch 4: $got (want $want)"
  done
done
# A batch above the backlog goes on with each later write (16 reads, then
# four times 1 write 1 read), also across the loop boundary, and what it has
# left carries over to the next loop (18 blocks: the second loop starts with
# 1w 1r 1w 1r).
want="$(rep 25 '16w 16r 1w 1r 1w 1r 1w 1r 1w 1r ')12w 12r "
got=$(order --ioengine=psync --rw=randwrite --size=1m --verify_backlog=16 \
  --verify_backlog_batch=20 --loops=2)
[ "$got" = "$want" ] || fail "backlog 16 batch 20: $got (want $want)"
want="16w 16r 1w 1r 1w 1r 1w 1r 1w 1r 16w 16r "
got=$(order --ioengine=psync --rw=write --size=72k --verify_backlog=16 --verify_backlog_batch=20 \
  --loops=2)
[ "$got" = "$want" ] || fail "batch carried over a loop: $got (want $want)"
want="$(rep 2 "100w $(rep 5 '30r 30w ')30r 6w 76r ")"
got=$(order --ioengine=psync --rw=write --size=1m --verify_backlog=100 --verify_backlog_batch=30 \
  --loops=2)
[ "$got" = "$want" ] || fail "backlog 100 batch 30 loops 2: $got (want $want)"
# Without a random map fio keeps the pending writes in offset order and a
# rewrite replaces the older entry: each batch reads the 4 lowest offsets
# pending, and a batch comes after 4 or more writes (4 + the rewrites).
order --ioengine=psync --rw=randwrite --norandommap --size=1m --verify_backlog=16 \
  --verify_backlog_batch=4 >/dev/null
python3 - "$tmp/o.log" <<'PY' || fail "norandommap: batches are not the lowest pending offsets"
import sys
pending, reads, writes, batch, runs = set(), 0, 0, [], []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 5 or f[2] not in ("read", "write"):
        continue
    off = int(f[3])
    if f[2] == "write":
        if batch:
            runs.append(len(batch)); batch = []
        pending.add(off); writes += 1
    else:
        assert off == min(pending), (off, sorted(pending)[:4])
        pending.remove(off); batch.append(off); reads += 1
assert writes == 256 and not pending, (writes, pending)
assert all(n == 4 for n in runs), runs
assert reads > 200, reads  # the old one-batch-per-16-writes order read 188
PY
# A verify_backlog far above what the job writes costs what the job has
# pending, not the option: the list used to be allocated up front (2^62:
# "cannot create std::vector larger than max_size()"; 10^9 under ulimit -v:
# std::bad_alloc; 10^7: 241 MB). fio 3.33: 16 writes, 16 reads, no error.
# (With norandommap, one read per distinct block written.)
# A sanitizer runtime reserves terabytes of shadow address space at start:
# no ulimit -v there (the 2^62 cases still fail without the fix).
vlimit=4000000
grep -qaE '__asan_init|__tsan_init' "$bin" && vlimit=unlimited
for spec in write:4611686018427387904 randwrite:1000000000 randwrite:4611686018427387904:--norandommap; do
  IFS=: read -r rw backlog extra <<<"$spec"
  (ulimit -v $vlimit && exec "$bin" --name=v --ioengine=psync --rw=$rw ${extra:+"$extra"} \
    --verify=crc32c --verify_backlog=$backlog --size=64k --bs=4k --filename="$tmp/h" \
    --verify_state_save=0 --output-format=json >"$tmp/h.json") || fail "$spec: exit $?"
  python3 - "$tmp/h.json" "$extra" <<'PY' || fail "$spec: each written block read back once"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
w, r = j["write"]["total_ios"], j["read"]["total_ios"]
assert j["error"] == 0, j["error"]
# norandommap rewrites some blocks: each distinct block is read once.
assert w == 16 and (r == 16 if not sys.argv[2] else 0 < r <= 16), (w, r)
PY
done
echo ok
