#!/bin/bash
# ctest-labels: threads
# A stop signal while a job's exec_prerun runs (Ctrl-C, timeout(1): both
# signal the hook too, which dies of it) is a stop, not the job's error:
# iobench reported `err=125 (exec_prerun 'sleep 3' exited with status 143
# ...)` on stderr, the job's error 125 and jobs[].iobench.interrupted false,
# while the run said interrupted and exited 143. Now the job is reported
# interrupted with no I/O and no error, nothing on stderr, and its postrun is
# not run. A prerun that fails on its own is still the job's error.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }
command -v setsid >/dev/null || { echo "skip: needs setsid"; exit 77; }

# check NAME WANT_EXIT: the JSON report in NAME.out says the run and its job
# were interrupted, the job with no error, and stderr is empty.
check() {
  local name=$1 want=$2
  expect_eq "$name: exit" "$rc" "$want"
  [ -s "$name.err" ] && fail "$name: stderr: $(head -c 300 "$name.err")"
  python3 - "$name.out" "$want" <<'PY' || fail "$name: JSON report: $(head -c 300 "$name.out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["iobench"]["interrupted"] is True, d["iobench"]
assert d["iobench"]["exit_code"] == int(sys.argv[2]), d["iobench"]
j = d["jobs"][0]
assert j["error"] == 0, (j["error"], j.get("iobench"))
assert j["iobench"]["interrupted"] is True, j["iobench"]
assert j["write"]["total_ios"] == 0, j["write"]
PY
  [ -e "$name.post" ] && fail "$name: the postrun ran after a prerun the stop cut short"
  echo "ok   $name"
}

# The QA reproducer: timeout(1) signals iobench, then its process group.
timeout --preserve-status 1 "$bin" --name=x --ioengine=null --size=1m --rw=write \
  --exec_prerun='sleep 3' --exec_postrun='touch timeout.post' --output-format=json \
  >timeout.out 2>timeout.err
rc=$?
check timeout 143

# Ctrl-C: SIGINT to the whole process group at once (its own session here).
setsid "$bin" --name=x --ioengine=null --size=1m --rw=write --exec_prerun='sleep 5' \
  --exec_postrun='touch int.post' --output-format=json >int.out 2>int.err &
pid=$!
for _ in $(seq 100); do pgrep -g "$pid" -x sleep >/dev/null && break; sleep 0.05; done
kill -INT -- "-$pid"
wait "$pid"
rc=$?
check int 130

# A hook that exits non-zero on its own (no signal) still fails the job.
"$bin" --name=x --ioengine=null --size=1m --exec_prerun='exit 3' --output-format=json \
  >fail.out 2>fail.err
rc=$?
expect_eq "failing prerun: exit" "$rc" 1
grep -q "^iobench: job 'x': err=125 (exec_prerun 'exit 3' exited with status 3" fail.err ||
  fail "failing prerun: stderr: $(head -c 300 fail.err)"

echo "$fails failed"
[ "$fails" -eq 0 ]
