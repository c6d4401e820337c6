#!/usr/bin/env bash
# ctest-cost: 4
# Options counted in ms or us (log_avg_msec, log_hist_msec, rate_cycle,
# bwavgtime through log_avg_msec) take any 64-bit count; in ns a large one
# passed 64 bits and wrapped: log_avg_msec=2^58 became a 0 ns window (a
# division by zero, SIGFPE), 18446744073710 ms a 0.45 ms one (a log line per
# I/O; rate_min judged over 0.45 ms and failed the job). Now such a window is
# one that never closes, as fio 3.33 runs them (err=0, no window line: fio
# keeps these options in 32 bits, and 18446744073710 is 48 days there).
# Null engine, counts only. $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
source "$2/tests/e2e/fio_side.bash"
source "$2/tests/e2e/check.bash"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo missing; fi; }

# --- log_avg_msec=2^58 with a bw log, no bwavgtime: the log's window is the
# report's sample window too; 2^58 ms * 10^6 is 0 mod 2^64 (SIGFPE before).
# fio truncates 2^58 to 0 and logs each I/O; here the window never closes.
"$bin" --name=x --ioengine=null --rw=read --size=64m --bs=4k --write_bw_log=big \
  --write_iops_log=big --log_avg_msec=288230376151711744 --output-format=terse >big.terse 2>big.err
expect_eq "log_avg_msec=2^58: exit status" "$?" 0
expect_eq "log_avg_msec=2^58: read I/Os" "$(cut -d';' -f6 big.terse)" 65536
expect_eq "log_avg_msec=2^58: bw log lines" "$(lines big_bw.1.log)" 0
expect_eq "log_avg_msec=2^58: iops log lines" "$(lines big_iops.1.log)" 0

# --- 18446744073710 ms (0.45 ms wrapped) for the windowed logs and the hist
# log: 20 I/Os 1 ms apart. fio 3.33: no bw/iops line, one clat and lat line
# (the last, partial window), no hist line. The hist log keeps its last
# partial interval (docs/patterns.md), one line; before the fix, one line of
# each per I/O, and 19 bw/iops samples in the report where fio has 0.
job=(--name=x --ioengine=null --rw=read --size=64m --bs=4k --rate_iops=1000 --number_ios=20
  --write_bw_log=x --write_iops_log=x --write_lat_log=x --write_hist_log=x
  --log_avg_msec=18446744073710 --log_hist_msec=18446744073710)
"$bin" "${job[@]}" --output-format=json >x.json 2>x.err || fail "18446744073710 ms: exit $?: $(cat x.err)"
expect_eq "18446744073710 ms: bw/iops samples of the report" "$(python3 -c '
import json; r = json.load(open("x.json"))["jobs"][0]["read"]
print(r["total_ios"], r["bw_samples"], r["iops_samples"])')" "20 0 0"
for f in x_bw:0 x_iops:0 x_clat:1 x_lat:1 x_clat_hist:1; do
  expect_eq "18446744073710 ms: ${f%:*} lines" "$(lines "${f%:*}.1.log")" "${f#*:}"
done
if fio_side; then
  mkdir fio && (cd fio && fio "${job[@]}" --output-format=terse >/dev/null 2>&1)
  expect_eq "fio: exit status" "$?" 0
  for f in x_bw:0 x_iops:0 x_clat:1 x_lat:1 x_clat_hist:0; do
    expect_eq "fio 18446744073710 ms: ${f%:*} lines" "$(lines "fio/${f%:*}.1.log")" "${f#*:}"
  done
fi

# --- rate_cycle=18446744073710: rate_min is judged over windows that never
# end, so never (fio 3.33: err=0). Before: over 0.45 ms windows, one 4 KiB
# read per 10 ms failed 1 MiB/s after fio's 2 s settle period.
job=(--name=x --ioengine=null --rw=read --size=64m --bs=4k --thinktime=10ms --rate_min=1m
  --time_based --runtime=3 --ratecycle=18446744073710)
read -r err _ < <(job_counts rc.err "$bin" "${job[@]}")
expect_eq "rate_cycle=18446744073710: error" "$err" 0
if fio_side; then
  read -r err _ < <(job_counts rc.err fio "${job[@]}")
  expect_eq "fio rate_cycle=18446744073710: error" "$err" 0
fi

[ "$fails" -eq 0 ]
