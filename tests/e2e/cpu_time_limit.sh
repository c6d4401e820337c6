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
# bash's plain `ulimit -t` sets the hard limit too, where the kernel sends
# SIGKILL and never SIGXCPU (exit 137, no report): iobench lowers its soft
# limit a second below the hard one, so the stop still comes with a report.
(ulimit -t 2 && exec timeout -k 5 50 "$bin" "${job[@]}") >out2.json 2>err2
expect_eq "ulimit -t (soft = hard): exit code" "$?" 152
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["iobench"]["exit_code"] == 152' \
  out2.json || fail "ulimit -t (soft = hard): no report: $(head -c 300 out2.json)"
grep -q "iobench: stopped by SIGXCPU: .*CPU time limit (ulimit -t, 2 s)" err2 ||
  fail "ulimit -t (soft = hard): stderr: $(cat err2)"
[ "$fails" -eq 0 ]
