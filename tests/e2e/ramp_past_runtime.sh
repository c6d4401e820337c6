#!/bin/bash
# End to end: a runtime shorter than ramp_time counts after the whole ramp,
# as in fio 3.33 (ramp_time=3 runtime=2: 5 s, 2 s measured, with
# latencies), unless the job waits on its rate: fio's rate wait measures
# from the job's start in the ramp and ends the job at its runtime, inside
# the ramp (ramp_time=3 runtime=1 rate_iops=100: 101 I/Os, no latencies),
# which iobench does too and notes. thinktime_spin, thinktime_blocks,
# thinktime_iotime without a thinktime do nothing (fio ignores them): noted.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=a --ioengine=null --rw=read --bs=4k --size=1g --time_based)
# $1: what; the rest: options. Sets $ios, $clat_n, $ms and $notes.
run() {
  local what=$1
  shift
  "$bin" "${job[@]}" "$@" --output-format=json >"$tmp/o.json" 2>"$tmp/e.txt"
  expect_eq "$what: exit" "$?" 0
  expect_eq "$what: stderr" "$(cat "$tmp/e.txt")" ""
  python3 - "$tmp/o.json" >"$tmp/o.txt" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["read"]["clat_ns"]["N"], j["job_runtime"])
for n in j.get("iobench", {}).get("notes", []):
    print(n)
PY
  read -r ios clat_n ms <"$tmp/o.txt"
  notes=$(sed 1d "$tmp/o.txt")
}
run "ramp past runtime" --runtime=300ms --ramp_time=1s
# Measured after the ramp: latencies for every I/O it reports (a job ended
# inside its ramp reports the ramp's I/Os with none).
[ "$ios" -gt 0 ] || fail "ramp past runtime: no I/O reported"
expect_eq "ramp past runtime: clat N = ios" "$clat_n" "$ios"
[ "$ms" -ge 300 ] || fail "ramp past runtime: job_runtime $ms ms < 300"
expect_eq "ramp past runtime: notes" "$notes" ""
# Rate-limited: ended at its runtime inside the ramp, as fio 3.33 ends it:
# the ramp's I/Os, no latencies, and a note (it did not wait out a 60 s ramp).
run "rate, ramp past runtime" --runtime=300ms --ramp_time=60s --rate_iops=200
[ "$ios" -gt 0 ] || fail "rate, ramp past runtime: no I/O reported"
expect_eq "rate, ramp past runtime: clat N" "$clat_n" 0
grep -qF "runtime=300ms (<cmdline>) is shorter than ramp_time=60s (<cmdline>) and the job waits on its rate: as fio 3.33 ends such a job, it ended at its runtime" <<<"$notes" ||
  fail "rate, ramp past runtime: no note: $notes"
# A direction no rate limits is taken instead of waiting: no cut (fio too).
run "randrw, only writes rated" --runtime=300ms --ramp_time=1s --rw=randrw --rate_iops=,50
expect_eq "randrw, only writes rated: notes" "$notes" ""
[ "$clat_n" -gt 0 ] || fail "randrw, only writes rated: no latencies"
# A ramp no longer than the runtime: measured after the ramp, no note.
run "ramp = runtime" --runtime=300ms --ramp_time=300ms
[ "$clat_n" -gt 0 ] || fail "ramp = runtime: no latencies"
expect_eq "ramp = runtime: notes" "$notes" ""
# The thinktime_* options without a thinktime.
printf '[global]\nioengine=null\nsize=64k\n[t]\nthinktime_spin=1s\nthinktime_blocks=3\n' >"$tmp/t.fio"
"$bin" "$tmp/t.fio" >"$tmp/t.txt" 2>"$tmp/t.err"
expect_eq "think: exit" "$?" 0
expect_eq "think: stderr" "$(cat "$tmp/t.err")" ""
grep -qF "note: thinktime_spin=1s ($tmp/t.fio:5), thinktime_blocks=3 ($tmp/t.fio:6) did nothing: thinktime is unset, so the job never thinks" "$tmp/t.txt" ||
  fail "think: no note: $(grep -i note "$tmp/t.txt")"
printf 'thinktime=0\n' >>"$tmp/t.fio"
"$bin" "$tmp/t.fio" >"$tmp/t.txt" 2>&1
grep -qF "did nothing: thinktime=0 ($tmp/t.fio:7)" "$tmp/t.txt" || fail "think=0: no note: $(grep -i note "$tmp/t.txt")"
# With a thinktime, no such note.
sed -i 's/^thinktime=0$/thinktime=1ms/' "$tmp/t.fio"
"$bin" "$tmp/t.fio" >"$tmp/t.txt" 2>&1
grep -q "did nothing" "$tmp/t.txt" && fail "think=1ms: a note: $(grep -i note "$tmp/t.txt")"
[ "$fails" -eq 0 ]
