#!/bin/bash
# ctest-labels: threads
# --status-interval-mode=interval with group_reporting: a group's runtime
# (read.runtime) is its longest member's, in each interval as at the end,
# and maxima do not add up: two 1 s jobs, the second with startdelay=1s,
# give intervals of about 1000 ms each (the first job's, then the second's)
# against 1000 at the end. Counts, bytes and job_runtime do add up. A run
# with no interim report (the interval longer than the run) prints only the
# final cumulative record. docs/status.md says so. $1: iobench binary, $2:
# source dir.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
cat >g.fio <<'JOB'
[global]
ioengine=null
rw=read
bs=4k
size=1g
time_based
runtime=1s
group_reporting
[a]
[b]
startdelay=1s
JOB
"$bin" --status-interval=1 --status-interval-mode=interval --output-format=json g.fio \
  >g.jsonl || fail "exit $?"
python3 - g.jsonl <<'PY' || fail "group intervals: $(cut -c1-200 g.jsonl)"
import json, sys
recs = [json.loads(l)["jobs"][0] for l in open(sys.argv[1])]
assert len(recs) >= 3, len(recs)
parts, final = recs[:-1], recs[-1]
for key in ("total_ios", "io_bytes"):
    assert sum(p["read"][key] for p in parts) == final["read"][key], key
assert sum(p["job_runtime"] for p in parts) == final["job_runtime"]
rt = [p["read"]["runtime"] for p in parts]
# the longest member's: about a second in each of the first two intervals
assert all(900 <= r <= 1100 for r in rt[:2]), rt
assert 900 <= final["read"]["runtime"] <= 1100, final["read"]["runtime"]
assert sum(rt) > final["read"]["runtime"] + 800, (rt, final["read"]["runtime"])
print("interval runtimes", rt, "final", final["read"]["runtime"])
PY
"$bin" --status-interval=5 --status-interval-mode=interval --output-format=json g.fio \
  >one.jsonl || fail "exit $?"
expect_eq "records with no interim report" "$(wc -l <one.jsonl)" 1
[ "$fails" -eq 0 ]
