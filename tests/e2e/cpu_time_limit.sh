#!/bin/bash
# The soft CPU time limit (ulimit -t) raises SIGXCPU, whose default action
# killed the run (exit 152) with its report lost. It is a stop like
# SIGTERM's: exit 152 (128 + SIGXCPU), the report of what was measured, and
# a line on stderr naming ulimit -t (the exit code alone does not say which
# limit, and the limit may come from limits.conf or a batch system).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

job=(--name=c --filename=c.dat --size=16m --rw=randread --numjobs=2 --time_based --runtime=60
  --output-format=json)
(ulimit -St 1 && exec timeout -k 5 50 "$bin" "${job[@]}") >out.json 2>err
expect_eq "exit code" "$?" 152
python3 - out.json <<'PY' || fail "no report: $(head -c 300 out.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["iobench"]["exit_code"] == 152, d["iobench"]
assert sum(j["read"]["io_bytes"] for j in d["jobs"]) > 0
PY
grep -q "iobench: stopped by SIGXCPU: .*CPU time limit (ulimit -t, 1 s)" err ||
  fail "stderr: $(cat err)"
[ "$fails" -eq 0 ]
