#!/bin/bash
# ctest-labels: threads
# Issue 8: the per-interval and per-I/O logs of a real run through the binary,
# null engine (no disk). $1: iobench binary, $2: source dir.
#  - rate_iops=1000 for 5 s with log_avg_msec=1000: four window lines at
#    1000..4000 ms, KiB/s = 4 x IOPS, as many as the report's samples; the
#    window that ends with the job (5000 ms) gets no line, as in fio 3.33;
#  - per-I/O latency logs: one clat/lat line per I/O of the JSON report, an
#    empty slat file (null completes inside submission), fio's file names;
#  - per_job_logs=0: the clones share one file without the .N;
#  - hist log: fio's own hist log tool parses it (skipped if not installed);
#  - fio2gnuplot reads our bw/iops logs (skipped if not installed).
set -u
bin=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# --- windowed bw/iops logs at a known rate
"$bin" --name=x --ioengine=null --rw=read --bs=4k --size=1G --rate_iops=1000 --runtime=5 \
  --time_based --log_avg_msec=1000 --write_iops_log=x --write_bw_log=x --output-format=json \
  >rate.json || fail "rate run exited $?"
[ -f x_iops.1.log ] || fail "no x_iops.1.log: $(ls)"
[ -f x_bw.1.log ] || fail "no x_bw.1.log: $(ls)"
python3 - <<'PY' || exit 1
def rows(path):
    return [[int(v) for v in l.split(",")] for l in open(path) if l.strip()]
import json
iops, bw = rows("x_iops.1.log"), rows("x_bw.1.log")
rd = json.load(open("rate.json"))["jobs"][0]["read"]
total = rd["total_ios"]
assert len(iops) == 4, ("iops lines", iops)
assert len(bw) == 4, ("bw lines", bw)
assert rd["iops_samples"] == len(iops) and rd["bw_samples"] == len(bw), rd
assert rd["iops_min"] == min(r[1] for r in iops) and rd["iops_max"] == max(r[1] for r in iops), rd
for k, (r, b) in enumerate(zip(iops, bw)):
    assert r[0] == 1000 * (k + 1) and b[0] == r[0], (r, b)      # time_ms on the window grid
    assert b[1] == 4 * r[1], ("KiB/s is 4 KiB x IOPS", r, b)
    assert r[2] == 0 and r[3] == 0 and r[4] == 0, r              # ddir read, bs 0 in windows, prio 0
# 1 s windows: a window's IOPS value is its I/O count, so the values add up to
# the I/Os completed by 4000 ms; the rest is the last second (no line), about
# 1000 I/Os, more if a loaded machine stalled the job before 4000 ms: the
# rate catches up after a stall, so a 250 ms stall at 3.9 s moved 180 I/Os
# of window 4000 into the last second. A window lost from the sum would leave
# 2000 or more. The rate caps the total; how close a loaded machine gets to
# it is not this test's business.
tail = total - sum(r[1] for r in iops)
assert 0 <= tail < 2000, (iops, total)
assert 0 < total <= 5001, total
print("windows ok", iops)
PY

# --- per-I/O latency logs: one line per I/O
"$bin" --name=lat --ioengine=null --rw=randread --bs=4k --size=4M --write_lat_log=lat \
  --output-format=json >lat.json || fail "lat run exited $?"
for f in lat_slat.1.log lat_clat.1.log lat_lat.1.log; do [ -f "$f" ] || fail "no $f: $(ls)"; done
[ -s lat_slat.1.log ] && fail "slat log of a sync engine should be empty"
python3 - <<'PY' || exit 1
import json
ios = json.load(open("lat.json"))["jobs"][0]["read"]["total_ios"]
assert ios == 1024, ios
for name in ("lat_clat.1.log", "lat_lat.1.log"):
    lines = [l for l in open(name) if l.strip()]
    assert len(lines) == ios, (name, len(lines), ios)
    for l in lines:
        t, v, d, bs, prio = [int(x) for x in l.split(",")]
        assert d == 0 and bs == 4096 and prio == 0, l
print("per-I/O ok", ios)
PY

# --- per_job_logs=0: clones share the file; =1: one file per clone
"$bin" --name=pj --ioengine=null --rw=write --bs=4k --size=1M --numjobs=2 --per_job_logs=0 \
  --write_iops_log=shared --output-format=json >pj.json || fail "per_job_logs run exited $?"
[ -f shared_iops.log ] || fail "no shared_iops.log: $(ls)"
[ -f shared_iops.1.log ] && fail "per_job_logs=0 wrote shared_iops.1.log"
python3 - <<'PY' || exit 1
import json
jobs = json.load(open("pj.json"))["jobs"]
ios = sum(j["write"]["total_ios"] for j in jobs)
n = sum(1 for l in open("shared_iops.log") if l.strip())
assert ios == 512 and n == ios, (n, ios)
print("shared ok", n)
PY
"$bin" --name=pj2 --ioengine=null --rw=write --bs=4k --size=1M --numjobs=2 --write_bw_log \
  --output-format=json >/dev/null || fail "bare write_bw_log run exited $?"
[ -f pj2_bw.1.log ] && [ -f pj2_bw.2.log ] || fail "bare flag: want pj2_bw.1.log and pj2_bw.2.log: $(ls)"

# --- --bandwidth-log: agg-*_bw.log in the current directory, every 500 ms
"$bin" --bandwidth-log --name=agg --ioengine=null --rw=rw --bs=4k --size=1G --rate=4m \
  --time_based --runtime=2 --output-format=terse >/dev/null || fail "bandwidth-log run exited $?"
python3 - <<'PY' || exit 1
for d, name in enumerate(("agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log")):
    rows = [[int(v) for v in l.split(",")] for l in open(name) if l.strip()]
    assert len(rows) >= 3, (name, rows)
    times = [r[0] for r in rows]
    assert times == sorted(times) and times[-1] >= 1900, (name, times)
    for r in rows:
        assert len(r) == 5 and r[2] == d and r[3] == 0 and r[4] == 0, (name, r)
    if d < 2:
        assert sum(r[1] for r in rows) > 0, (name, rows)
    else:
        assert all(r[1] == 0 for r in rows), (name, rows)  # rw: no trims
print("bandwidth-log ok")
PY

# --- --bandwidth-log with ramp_time: as fio, the ramp's I/O is not in the
# aggregate log (its windows are 0) and the measured I/O is all there. The
# rates times the window lengths add up to the report's bytes; iobench used
# to count the ramp and then lose the measured part of the window the ramp
# ended in (the job's counters restart at 0).
mkdir ramp && cd ramp || exit 1
"$bin" --bandwidth-log --name=ramp --ioengine=null --rw=read --bs=4k --size=1G --rate_iops=1000 \
  --ramp_time=1250ms --time_based --runtime=1250ms --output-format=json >ramp.json ||
  fail "bandwidth-log ramp run exited $?"
python3 - <<'PY' || exit 1
import json
kib = json.load(open("ramp.json"))["jobs"][0]["read"]["io_bytes"] / 1024
rows = [[int(v) for v in l.split(",")] for l in open("agg-read_bw.log") if l.strip()]
prev, total = 0, 0.0
for t, v, *_ in rows:
    total += v * (t - prev) / 1000
    if t <= 1200:
        assert v == 0, ("a ramp window has bandwidth", rows)
    prev = t
assert abs(total - kib) <= 0.05 * kib, ("agg log KiB vs measured KiB", total, kib, rows)
print("bandwidth-log leaves the ramp out", round(total), round(kib))
PY
cd .. || exit 1

# --- hist log, parsed by fio's tool
"$bin" --name=h --ioengine=null --rw=randread --bs=4k --size=1G --rate_iops=1000 --runtime=2 \
  --time_based --write_hist_log=h --log_hist_msec=500 --output-format=json >h.json ||
  fail "hist run exited $?"
[ -f h_clat_hist.1.log ] || fail "no h_clat_hist.1.log"
python3 - <<'PY' || exit 1
import json
ios = json.load(open("h.json"))["jobs"][0]["read"]["total_ios"]
total = 0
for l in open("h_clat_hist.1.log"):
    f = [int(x) for x in l.split(",")]
    assert len(f) == 3 + 1856, len(f)
    total += sum(f[3:])
assert total == ios, (total, ios)
print("hist sums to the I/O count", ios)
PY
gz=/usr/share/doc/fio/fio-histo-log-pctiles.py.gz
if [ -r "$gz" ] && command -v python3 >/dev/null; then
  zcat "$gz" >pctiles.py
  python3 pctiles.py --log-hist-msec 500 --time-quantum 1 h_clat_hist.1.log >pct.txt 2>&1 ||
    fail "fio-histo-log-pctiles.py: $(cat pct.txt)"
  grep -qE '^ *[0-9]+, *[0-9]+' pct.txt || fail "no percentile rows: $(cat pct.txt)"
  echo "fio-histo-log-pctiles.py ok"
else
  echo "note: $gz not installed, fio's hist log parser not run"
fi
if command -v fio2gnuplot >/dev/null; then
  mkdir g && cp x_bw.1.log x_iops.1.log g/ && cd g &&
    { fio2gnuplot -b -g -d out >out.txt 2>&1 || fail "fio2gnuplot -b: $(cat out.txt)"; } &&
    { fio2gnuplot -i -g -d out >>out.txt 2>&1 || fail "fio2gnuplot -i: $(cat out.txt)"; }
  ls out | grep -q . || fail "fio2gnuplot produced nothing"
  echo "fio2gnuplot ok"
  cd ..
fi
# Files are numbered by the job's place in the run (fio's thread_number, as
# fio's t0033 checks): two jobs sharing a prefix, one with two clones, and a
# third job after a stonewall write x_bw.1 .. x_bw.4, one per clone.
mkdir n && cd n || fail "mkdir n"
"$bin" --name=a --ioengine=null --size=64k --write_bw_log=x --numjobs=2 \
  --name=b --ioengine=null --size=64k --write_bw_log=x --write_iops_log=y \
  --name=c --stonewall --ioengine=null --size=64k --write_bw_log=x \
  --output-format=terse >/dev/null || fail "numbering run exited $?"
[ "$(ls | tr '\n' ' ')" = "x_bw.1.log x_bw.2.log x_bw.3.log x_bw.4.log y_iops.3.log " ] ||
  fail "log numbering: $(ls | tr '\n' ' ')"
echo "log numbering ok"
cd ..
if command -v fio_generate_plots >/dev/null && command -v gnuplot >/dev/null; then
  mkdir p && cd p || fail "mkdir p"
  "$bin" --name=run --ioengine=null --rw=randread --bs=4k --size=1G --rate_iops=2000 \
    --time_based --runtime=2 --log_avg_msec=250 --write_bw_log=run --write_iops_log=run \
    --write_lat_log=run --output-format=terse >/dev/null || fail "plots run exited $?"
  fio_generate_plots run >out.txt 2>&1 || fail "fio_generate_plots: $(tail -n 20 out.txt)"
  for k in bw iops lat clat; do
    grep -q '<svg' "run-$k.svg" 2>/dev/null || fail "fio_generate_plots made no run-$k.svg"
  done
  echo "fio_generate_plots ok"
  cd ..
else
  echo "note: fio_generate_plots or gnuplot not installed, not run"
fi
echo ok
