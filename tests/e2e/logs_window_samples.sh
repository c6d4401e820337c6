#!/bin/bash
# The bw/iops window logs (log_avg_msec) have exactly one line per sample of
# the report (docs/output.md: the report's bw/iops min, max, mean and samples
# are those of the log's lines), and as many as fio 3.33 writes: the window
# that ends with the job (at the runtime's end) is neither a line nor a
# sample, as in fio. iobench wrote it to the log (runtime=1, 500 ms windows:
# lines at 500 and 1000, samples=1; fio: one line, samples=1) and, when no
# rate limit held the job, took it as a sample too (4 in 1 s of 250 ms
# windows; fio 3). With bwavgtime/iopsavgtime set, the lines follow them
# too, as fio's. Null engine, rate_iops=1000 unless said.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# check TOOL NAME WANT ARGS...: runs the job with bw and iops logs under
# prefix NAME; "DIR.KIND=LINES/SAMPLES" of both logs must match the extended
# regex WANT, and the lines' min/max/mean the report's.
check() {
  local tool=$1 name=$2 want=$3
  shift 3
  rm -f "${name}"_*.log
  "$tool" --name="$name" --ioengine=null --size=100m --time_based --write_bw_log="$name" \
    --write_iops_log="$name" --output-format=json "$@" >"$name.json" 2>err ||
    { fail "$tool $name: exit $?: $(cat err)"; return; }
  local got
  got=$(python3 - "$name" <<'PY'
import json, sys
name = sys.argv[1]
t = open(name + ".json").read()
job = json.loads(t[t.find("{"):])["jobs"][0]
out = []
for d, dname in enumerate(("read", "write")):
    rep = job[dname]
    for kind in ("bw", "iops"):
        vals = [int(l.split(",")[1]) for l in open(f"{name}_{kind}.1.log")
                if l.strip() and int(l.split(",")[2]) == d]
        n = rep[kind + "_samples"]
        if n == 0 and not vals:
            continue
        out.append(f"{dname}.{kind}={len(vals)}/{n}")
        if vals and n == len(vals):
            mean = sum(vals) / len(vals)
            if (rep[kind + "_min"], rep[kind + "_max"]) != (min(vals), max(vals)) or \
               abs(rep[kind + "_mean"] - mean) > 0.01:
                out.append(f"{dname}.{kind}:report({rep[kind + '_min']},{rep[kind + '_max']},"
                           f"{rep[kind + '_mean']})!=log({min(vals)},{max(vals)},{mean})")
print(" ".join(out))
PY
)
  if [[ "$got" =~ ^($want)$ ]]; then
    echo "ok   $tool $name: lines/samples ($got)"
  else
    fail "$tool $name: lines/samples: got '$got', want '$want'"
  fi
}

# A thread stalled for a whole window on a loaded machine merges two
# windows into one line and sample (a 400 ms stall of "free": 2 lines): one
# fewer is allowed, never one more, and always as many lines as samples.
one="read.bw=1/1 read.iops=1/1"
seven="read.bw=(7/7|6/6) read.iops=(7/7|6/6) write.bw=(7/7|6/6) write.iops=(7/7|6/6)"
three="read.bw=(3/3|2/2) read.iops=(3/3|2/2)"
# fio: the same counts, but its helper thread, racing the job's end, samples
# the window that ends with the job now and then on a loaded machine (in the
# log and the report alike: always as many lines as samples).
fio_one="read.bw=(1/1|2/2) read.iops=(1/1|2/2)"
fio_seven="read.bw=(7/7|8/8) read.iops=(7/7|8/8) write.bw=(7/7|8/8) write.iops=(7/7|8/8)"
fio_three="read.bw=(3/3|4/4) read.iops=(3/3|4/4)"
check "$bin" r1 "$one" --rw=read --rate_iops=1000 --runtime=1 --log_avg_msec=500
check "$bin" rw2 "$seven" --rw=randrw --rate_iops=1000 --runtime=2 --log_avg_msec=250
# No rate limit: the job's last check comes after the last window's end.
check "$bin" free "$three" --rw=read --runtime=1 --log_avg_msec=250
if fio_side; then
  check fio r1 "$fio_one" --rw=read --rate_iops=1000 --runtime=1 --log_avg_msec=500
  check fio rw2 "$fio_seven" --rw=randrw --rate_iops=1000 --runtime=2 --log_avg_msec=250
  check fio free "$fio_three" --rw=read --runtime=1 --log_avg_msec=250
fi
# An explicit bwavgtime (iopsavgtime) sets the windows of the samples, and
# fio adds a bw (iops) log entry only when it takes a sample: above
# log_avg_msec a line per sample too (bwavgtime=1000: 1 line in 2 s, at
# 1000; iobench wrote 7, one per 250 ms window), below it as well
# (bwavgtime=100: 19 lines; iobench wrote 7), equal the same 7.
above="read.bw=1/1 read.iops=1/1"
# (100 ms windows: a loaded machine's stalls may merge several of them, 15
# seen in CI with other builds running, as fio's 8-20 below; what must hold
# is one line per sample.)
n_n=$(for n in $(seq 8 20); do printf '%s' "$n/$n|"; done)
below="read.bw=(${n_n%|}) read.iops=(3/3|2/2)"
equal="read.bw=(7/7|6/6) read.iops=(3/3|2/2)"
check "$bin" above "$above" --rw=read --rate_iops=1000 --runtime=2 --log_avg_msec=250 \
  --bwavgtime=1000 --iopsavgtime=1000
check "$bin" below "$below" --rw=read --rate_iops=1000 --runtime=2 --log_avg_msec=250 \
  --bwavgtime=100 --iopsavgtime=500
check "$bin" equal "$equal" --rw=read --rate_iops=1000 --runtime=2 --log_avg_msec=250 \
  --bwavgtime=250 --iopsavgtime=500
check "$bin" above_free "$above" --rw=read --runtime=2 --log_avg_msec=250 --bwavgtime=1000 \
  --iopsavgtime=1000
if fio_side; then
  # fio's helper thread drifts: a sample (and line) more or fewer now and then.
  check fio above "read.bw=(1/1|2/2) read.iops=(1/1|2/2)" --rw=read --rate_iops=1000 \
    --runtime=2 --log_avg_msec=250 --bwavgtime=1000 --iopsavgtime=1000
  # (Loaded, fio's helper thread skips many 100 ms windows: 13 lines seen.)
  check fio below "read.bw=(${n_n%|}) read.iops=(2/2|3/3|4/4)" --rw=read \
    --rate_iops=1000 --runtime=2 --log_avg_msec=250 --bwavgtime=100 --iopsavgtime=500
fi
# With a ramp the windows start at its end. fio's helper thread finds the
# ramp's end a little late, so its last window often ends before the job's
# (4 lines as often as 3): not compared.
check "$bin" ramp "$three" --rw=read --rate_iops=1000 --runtime=2 --log_avg_msec=500 \
  --ramp_time=500ms
[ "$fails" -eq 0 ] && echo "ok: one bw/iops line per report sample, as fio"
[ "$fails" -eq 0 ]
