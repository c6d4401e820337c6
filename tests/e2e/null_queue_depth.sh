#!/bin/bash
# fio 3.33's null engine queues at iodepth > 1: each I/O is queued, a commit
# (every iodepth_batch I/Os) issues the batch, the next queue call answers
# busy until getevents has returned the whole batch. So its "IO depths",
# "submit" and "complete" lines show the batch size, every I/O has a
# submission latency (slat), and loops and io_size end as with any queueing
# engine. iobench's null engine completed every I/O inside the call: depth
# 1=100%, submit/complete 4=100%, slat N=0 and an empty slat log, and
# norandommap io_size=2m loops=2 over 1m issued 4096 KiB where fio issues
# 2048. At iodepth=1 both complete in the call (no slat, no submissions).
# Expected values are fio 3.33's, checked against fio too when it is there.
# (Polling, iodepth_batch_complete_min=0 and _max=0, commits each I/O as it
# is queued: depth 1 whatever iodepth_batch says, in both tools.)
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# sig TOOL ARGS...: I/Os, KiB, slat N and the non-zero depth, submit and
# complete buckets (JSON iodepth_level, iodepth_submit, iodepth_complete).
sig() {
  local tool=$1
  shift
  "$tool" --output-format=json --name=a --ioengine=null "$@" 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
def nz(m): return ",".join(f"{k}={float(v):.2f}" for k, v in m.items() if float(v) != 0) or "-"
ios = sum(j[d]["total_ios"] for d in ("read", "write", "trim"))
kib = sum(j[d]["io_kbytes"] for d in ("read", "write", "trim"))
slat = sum(j[d]["slat_ns"]["N"] for d in ("read", "write", "trim"))
depth, submit, complete = (nz(j[k]) for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"))
print(f"ios={ios} kib={kib} slat={slat} depth={depth} submit={submit} complete={complete}")' ||
    fail "$tool $*: $(cat err)"
}

# options|expected (the same for both tools)
cases=(
  "--size=4m --bs=4k --rw=randread --iodepth=64 --iodepth_batch=8|ios=1024 kib=4096 slat=1024 depth=8=100.00 submit=8=100.00 complete=8=100.00"
  "--size=4m --bs=4k --rw=randread --iodepth=8 --iodepth_batch=0|ios=1024 kib=4096 slat=1024 depth=8=100.00 submit=8=100.00 complete=8=100.00"
  "--size=4m --bs=4k --rw=randread --iodepth=16 --iodepth_batch_submit=16 --iodepth_batch_complete_min=16|ios=1024 kib=4096 slat=1024 depth=16=100.00 submit=16=100.00 complete=16=100.00"
  "--size=1m --bs=4k --rw=read --iodepth=2|ios=256 kib=1024 slat=256 depth=1=100.00 submit=4=100.00 complete=4=100.00"
  "--size=1m --bs=4k --rw=read --iodepth=16 --iodepth_batch=4 --iodepth_batch_complete_min=8|ios=256 kib=1024 slat=256 depth=4=100.00 submit=4=100.00 complete=4=100.00"
  "--size=1m --bs=4k --rw=read --iodepth=16 --iodepth_batch=8 --iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0|ios=256 kib=1024 slat=256 depth=1=100.00 submit=4=100.00 complete=4=100.00"
  "--size=1m --bs=4k --rw=randwrite --iodepth=8 --iodepth_batch=4|ios=256 kib=1024 slat=256 depth=4=100.00 submit=4=100.00 complete=4=100.00"
  "--size=1m --bs=4k --rw=read --iodepth=16 --iodepth_batch=16 --iodepth_batch_complete_min=4 --iodepth_low=4|ios=256 kib=1024 slat=256 depth=16=100.00 submit=16=100.00 complete=16=100.00"
  "--size=1m --bs=4k --rw=randread --norandommap --io_size=2m --loops=2 --iodepth=16|ios=512 kib=2048 slat=512 depth=1=100.00 submit=4=100.00 complete=4=100.00"
  "--size=1m --bs=4k --rw=read --iodepth=1|ios=256 kib=1024 slat=0 depth=1=100.00 submit=- complete=-"
)
for tool in $(tools); do
  c=$(cmd "$tool")
  for tc in "${cases[@]}"; do
    # shellcheck disable=SC2086
    expect_eq "$tool: ${tc%%|*}" "$(sig "$c" ${tc%%|*})" "${tc#*|}"
  done
done

# The last, partial batch (256 I/Os in batches of 10: 25 and 6): fio
# commits it in getevents and leaves it out of its IO depths line
# (8=97.66%, summing to 97.66); iobench records each commit's depth
# (docs/async-engines.md, "The depth lines next to fio 3.33").
p="--size=1m --bs=4k --rw=read --iodepth=16 --iodepth_batch=10"
# shellcheck disable=SC2086
expect_eq "iob: $p" "$(sig "$bin" $p)" \
  "ios=256 kib=1024 slat=256 depth=4=2.34,8=97.66 submit=8=3.85,16=96.15 complete=8=3.85,16=96.15"
if fio_side; then
  # shellcheck disable=SC2086
  expect_eq "fio: $p" "$(sig fio $p)" \
    "ios=256 kib=1024 slat=256 depth=8=97.66 submit=8=3.85,16=96.15 complete=8=3.85,16=96.15"
fi

# The normal output's lines, and the slat log: one line per I/O at
# iodepth > 1 (fio's has them too), none at iodepth=1.
out=$("$bin" --name=a --ioengine=null --size=4m --bs=4k --rw=randread --iodepth=64 \
  --iodepth_batch=8 --write_lat_log=q 2>&1) || fail "normal output: $out"
grep -q "^ *IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=100.0%, 16=0.0%," <<<"$out" ||
  fail "IO depths line: $out"
grep -q "^ *submit    : 0=0.0%, 4=0.0%, 8=100.0%, 16=0.0%," <<<"$out" || fail "submit line: $out"
grep -q "^ *complete  : 0=0.0%, 4=0.0%, 8=100.0%, 16=0.0%," <<<"$out" || fail "complete line: $out"
grep -q "^ *slat (nsec): min=" <<<"$out" || fail "no slat line: $out"
# No thread does null's I/O: no helper CPU is sampled or printed.
! grep -q "^ *helpers *:" <<<"$out" || fail "a helpers line for null: $out"
expect_eq "slat log lines at iodepth=64" "$(wc -l <q_slat.1.log)" 1024
"$bin" --name=a --ioengine=null --size=1m --bs=4k --rw=read --write_lat_log=one \
  --output=/dev/null || fail "iodepth=1 log run"
expect_eq "slat log lines at iodepth=1" "$(wc -l <one_slat.1.log)" 0

# slat_percentiles: the JSON has slat percentiles (there were no samples).
"$bin" --name=a --ioengine=null --size=1m --bs=4k --rw=read --iodepth=4 --iodepth_batch=4 \
  --slat_percentiles=1 --output-format=json 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
s = json.loads(t[t.find("{"):])["jobs"][0]["read"]["slat_ns"]
assert s["N"] == 256 and "percentile" in s, s
' || fail "slat_percentiles: $(cat err)"
[ "$fails" -eq 0 ]
