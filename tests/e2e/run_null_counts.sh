#!/bin/bash
# The null engine through the CLI: number_ios=N gives exactly N I/Os and
# N*bs bytes in the JSON report. $1: iobench binary, $2: source dir.
# Exit 77 (skip) while the CLI does not accept job options yet.
set -u
bin=$1
if ! "$bin" --help 2>&1 | grep -q -- "--output-format"; then
  echo "skip: the CLI does not take job options yet"
  exit 77
fi
# --max-jobs (fio's test runner passes --max-jobs=16 on every call) and
# --alloc-size are ignored, as fio 3.33 ignores them: 3 jobs run with
# --max-jobs=1 (iobench refused them, saying fio would).
out=$("$bin" --max-jobs=1 --alloc-size=1024 --name=n --ioengine=null --size=64M --bs=8k --rw=randread \
  --number_ios=1000 --numjobs=3 --output-format=json) || { echo "iobench failed"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
doc = json.loads(sys.argv[1])
jobs = doc["jobs"]
assert len(jobs) == 3, len(jobs)
for j in jobs:
    r = j["read"]
    assert r["total_ios"] == 1000, r["total_ios"]
    assert r["io_bytes"] == 1000 * 8192, r["io_bytes"]
print("ok")
PY
# bs after bssplit is ignored, as in fio, and the job's report says so (a
# note in JSON and in the normal report; nothing on stderr).
out=$("$bin" --name=n --ioengine=null --size=1m --bssplit=4k/50:8k/50 --bs=16k \
  --output-format=json 2>err.txt) || { echo "bssplit run failed"; exit 1; }
[ -s err.txt ] && { echo "bssplit run wrote to stderr: $(cat err.txt)"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
notes = j["iobench"]["notes"]
assert any(n.startswith("bs=16k (command line) is ignored: bssplit (command line)") for n in notes), notes
assert j["job options"]["bssplit"] == "4k/50:8k/50", j["job options"]
print("ok: bs after bssplit noted")
PY
rm -f err.txt

# time_based without a runtime: fio warns and runs the job size-based;
# iobench ran until a signal. Same count as without time_based and a note in
# the report (not stderr: a sweep may set the runtime after parsing); under
# timeout so a regression fails instead of hanging.
printf '[global]\ntime_based\n[t]\nioengine=null\nsize=1m\n' >tb.fio
out=$(timeout 60 "$bin" tb.fio --output-format=json 2>err.txt) || { echo "time_based run failed"; exit 1; }
[ -s err.txt ] && { echo "time_based run wrote to stderr: $(cat err.txt)"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
assert j["read"]["total_ios"] == 256, j["read"]["total_ios"]
assert any(n.startswith("time_based (tb.fio:2) is ignored: it needs a runtime") for n in j["iobench"]["notes"]), j["iobench"]["notes"]
print("ok: time_based without runtime ran size-based")
PY
rm -f tb.fio err.txt
