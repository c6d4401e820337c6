#!/bin/bash
# Issue 8: the per-interval and per-I/O logs of a real run through the binary,
# null engine (no disk). $1: iobench binary, $2: source dir.
#  - rate_iops=1000 for 5 s with log_avg_msec=1000: five window lines of
#    ~1000 IOPS (+-5 %) and ~4000 KiB/s, at 1000..5000 ms;
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
iops, bw = rows("x_iops.1.log"), rows("x_bw.1.log")
assert len(iops) == 5, ("iops lines", iops)
assert len(bw) == 5, ("bw lines", bw)
for k, (r, b) in enumerate(zip(iops, bw)):
    assert r[0] == 1000 * (k + 1) and b[0] == r[0], (r, b)      # time_ms on the window grid
    assert 950 <= r[1] <= 1050, ("iops", r)                      # ~1000 IOPS
    assert 3800 <= b[1] <= 4200, ("KiB/s", b)                    # 1000 x 4 KiB/s
    assert r[2] == 0 and r[3] == 0 and r[4] == 0, r              # ddir read, bs 0 in windows, prio 0
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
echo ok
