#!/bin/bash
# End to end: sweeps, tables and --compare as scripts use them, with the
# inputs that broke them (docs/sweep.md, "Hostile inputs"):
# - Ctrl-C in the middle of a sweep: exit 130, the JSON says interrupted and
#   which points never ran, the table marks the cut point and lists them;
# - Ctrl-C during a --repeat run, alone or in a sweep point: the point is
#   marked cut (JSON, " *", exit code), the cut run left out of the median;
# - Ctrl-C during a --sweep-cmd hook: that point is not run;
# - --compare of files with nothing in common, or of a file without jobs:
#   exit 2 and a message naming the files, not an empty "comparison";
# - --compare BASE.json alone: says what it wants;
# - normal and table output together: a blank line between them.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1

fail() {
  echo "FAIL: $*"
  exit 1
}
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
tmp=$(mktemp -d /var/tmp/iobench_sweep_hostile.XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

# SIGINT in the second of three points. Point time_based=0 ends after 1 MiB,
# point time_based=1 would run 120 s; the hook marks each point as it starts,
# so the signal is sent once the second point is under way (no sleep race).
job=(--name=j --ioengine=null --size=1m --bs=4k --rw=randread --runtime=120)
"$bin" "${job[@]}" --sweep time_based=0,1 --sweep iodepth=1,2 \
  --sweep-cmd="touch $tmp/started.{time_based}.{iodepth}" \
  --output-format=json,table --output="$tmp/int.out" 2>"$tmp/int.err" &
pid=$!
for _ in $(seq 600); do
  [ -e "$tmp/started.1.1" ] && break
  sleep 0.1
done
[ -e "$tmp/started.1.1" ] || fail "the second point never started: $(cat "$tmp/int.err")"
sleep 0.5  # the hook runs before the point: let the run begin
kill -INT "$pid"
wait "$pid"
rc=$?
pid=
[ $rc -eq 130 ] || fail "SIGINT in a sweep: exit $rc, want 130 ($(cat "$tmp/int.err"))"
sed -n "/^read IOPS/,\$p" "$tmp/int.out"
python3 - "$tmp/int.out" <<'PY' || fail "interrupted sweep JSON"
import json, re, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text)
pts = [(j["iobench"]["point"], j["iobench"]["interrupted"]) for j in doc["jobs"]]
assert [p for p, _ in pts] == [{"time_based": "0", "iodepth": "1"},
                               {"time_based": "0", "iodepth": "2"},
                               {"time_based": "1", "iodepth": "1"}], pts
assert [i for _, i in pts] == [False, False, True], pts
top = doc["iobench"]
assert top["interrupted"] is True, top["interrupted"]
assert top["point"] == {}, top["point"]
sw = top["sweep"]
assert sw["points"] == 3 and sw["planned_points"] == 4, sw
assert sw["not_run"] == [{"time_based": "1", "iodepth": "2"}], sw["not_run"]
table = text[end:]
assert "* interrupted: this point ran only part of its time" in table, table
assert "not run (the sweep was stopped): time_based=1 iodepth=2" in table, table
star = [l for l in table.splitlines() if re.search(r"[0-9kM] \*( |$)", l)]
assert len(star) == 1 and star[0].split()[0] == "1", star  # the time_based=1 row
PY

# A signal in a chosen run, sent by the job's exec_prerun (a counter file
# picks the run), so it lands inside that run whatever the timing.
# run_signalled SIG N NAME ARGS...: iobench ARGS in the background; the
# exec_prerun of its Nth run (from 1) sends SIG to it. Output in
# $tmp/NAME.out and NAME.err, the exit code in $rc.
run_signalled() {
  local sig=$1 nth=$2 name=$3
  shift 3
  rm -f "$tmp/count" "$tmp/pid"
  cat >"$tmp/prerun.sh" <<EOF
#!/bin/sh
n=\$(( \$(cat $tmp/count 2>/dev/null || echo 0) + 1 ))
echo \$n >$tmp/count
[ \$n -eq $nth ] || exit 0
for _ in \$(seq 200); do [ -s $tmp/pid ] && break; sleep 0.05; done
kill -$sig \$(cat $tmp/pid)
EOF
  chmod +x "$tmp/prerun.sh"
  local abs
  abs=$(readlink -f "$bin")
  (cd "$tmp" && exec "$abs" "$@" --exec_prerun="$tmp/prerun.sh") >"$tmp/$name.out" \
    2>"$tmp/$name.err" &
  pid=$!
  echo $pid >"$tmp/pid.tmp" && mv "$tmp/pid.tmp" "$tmp/pid"
  wait "$pid"
  rc=$?
  pid=
}
# check_cut NAME RC JOBS STAR NOT_RUN: the run NAME exited RC, said nothing
# on stderr, and its JSON and table (json,table) tell the cut: JOBS is the
# JSON list of [iodepth, interrupted, repeat n] per job, STAR the row marked
# " *" ("" for none), NOT_RUN the JSON list of the points not run.
check_cut() {
  [ "$rc" -eq "$2" ] || fail "$1: exit $rc, want $2 ($(cat "$tmp/$1.err"))"
  [ -s "$tmp/$1.err" ] && fail "$1: stderr: $(cat "$tmp/$1.err")"
  python3 - "$tmp/$1.out" "$2" "$3" "$4" "$5" <<'PY' || fail "$1: $(cat "$tmp/$1.out")"
import json, re, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text)
top = doc["iobench"]
assert top["interrupted"] is True and top["exit_code"] == int(sys.argv[2]), top
got = [[j["iobench"]["point"].get("iodepth"), j["iobench"].get("interrupted", False),
        j["iobench"].get("repeat", {}).get("n")] for j in doc["jobs"]]
assert got == json.loads(sys.argv[3]), got
assert all(j["read"]["total_ios"] > 0 for j in doc["jobs"]), "a job without I/O"
table = text[end:]
star = [l.split()[0] for l in table.splitlines() if re.search(r"[0-9kMG] \*$", l)]
assert star == ([sys.argv[4]] if sys.argv[4] else []), table
assert ("* interrupted: this point" in table) == bool(sys.argv[4]), table
assert top.get("sweep", {}).get("not_run", []) == json.loads(sys.argv[5]), top
PY
  echo "ok   $1"
}
job=(--name=j --ioengine=null --size=64m --rw=randread --runtime=0.05 --time_based)
# Ctrl-C in run 2 of --repeat=3: run 1 gives the figures, the run is marked cut.
run_signalled INT 2 repeat "${job[@]}" --repeat=3 --output-format=json,table
check_cut repeat 130 '[[null, true, 1]]' j '[]'
# SIGTERM in the second repeat of a sweep's second point (run 4): the first
# point is whole; the JSON's exit code is SIGTERM's, 143, as the process's.
run_signalled TERM 4 sweep_repeat "${job[@]}" --repeat=2 --sweep iodepth=1,2,4 \
  --output-format=json,table
check_cut sweep_repeat 143 '[["1", false, 2], ["2", true, 1]]' 2 '[{"iodepth": "4"}]'

# Ctrl-C while the --sweep-cmd hook of point 2 runs: point 2 is not run
# (it ran with the stop flag set and showed a real-looking 0).
"$bin" "${job[@]}" --sweep iodepth=1,2,4 --sweep-cmd='[ {iodepth} = 2 ] && kill -INT $PPID; true' \
  --output-format=json,table >"$tmp/hook.out" 2>"$tmp/hook.err"
rc=$?
check_cut hook 130 '[["1", false, null]]' '' '[{"iodepth": "2"}, {"iodepth": "4"}]'

# A failing --sweep-cmd hook (exit 7 at point 2): the run exits 7, and the
# JSON and the table say why the sweep stopped (the JSON said exit_code 0;
# the table only "the sweep was stopped").
"$bin" "${job[@]}" --sweep iodepth=1,2,4 --sweep-cmd='[ {iodepth} = 2 ] && exit 7; true' \
  --output-format=json,table >"$tmp/hookfail.out" 2>"$tmp/hookfail.err"
rc=$?
[ $rc -eq 7 ] || fail "failing hook: exit $rc, want 7 ($(cat "$tmp/hookfail.err"))"
grep -q "failed with exit code 7 at point iodepth=2; the sweep stops here" "$tmp/hookfail.err" ||
  fail "failing hook: stderr $(cat "$tmp/hookfail.err")"
python3 - "$tmp/hookfail.out" <<'PY' || fail "failing hook: $(cat "$tmp/hookfail.out")"
import json, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text)
top = doc["iobench"]
assert top["exit_code"] == 7 and top["interrupted"] is False, top
assert top["sweep"]["not_run"] == [{"iodepth": "2"}, {"iodepth": "4"}], top
assert top["sweep"]["stopped"] == {"by": "sweep-cmd", "point": {"iodepth": "2"},
                                   "command": "[ 2 = 2 ] && exit 7; true",
                                   "exit_code": 7}, top["sweep"]
want = ("not run (--sweep-cmd failed with exit code 7 at point iodepth=2; "
        "the sweep stopped there): iodepth=2; iodepth=4")
assert want in text[end:].splitlines(), text[end:]
PY
echo "ok   hookfail"

# --compare: files with nothing in common, and a file without jobs.
"$bin" --name=other --ioengine=null --size=64k --rw=randwrite --output-format=json \
  --output="$tmp/other.json" || fail "other run exited $?"
"$bin" --name=j --ioengine=null --size=64k --rw=randread --sweep iodepth=1,2 \
  --output-format=json --output="$tmp/sweep.json" || fail "sweep run exited $?"
"$bin" --compare "$tmp/other.json" "$tmp/sweep.json" >"$tmp/none.out" 2>"$tmp/none.err"
rc=$?
[ $rc -eq 2 ] || fail "compare with nothing in common: exit $rc, want 2"
[ ! -s "$tmp/none.out" ] || fail "compare with nothing in common printed: $(cat "$tmp/none.out")"
grep -q "^iobench: compare: no job of $tmp/other.json matches a job of $tmp/sweep.json" \
  "$tmp/none.err" || fail "message: $(cat "$tmp/none.err")"
echo '{"jobs": []}' >"$tmp/empty.json"
"$bin" --compare "$tmp/empty.json" "$tmp/sweep.json" 2>"$tmp/empty.err"
rc=$?
[ $rc -eq 2 ] || fail "compare with an empty base: exit $rc, want 2"
grep -qx "iobench: compare: $tmp/empty.json holds no jobs" "$tmp/empty.err" ||
  fail "message: $(cat "$tmp/empty.err")"
# An engine option swept with the engine is checked as whole points, in
# either flag order (force_async alone met the base job's psync: refused).
for order in "--sweep ioengine=io_uring --sweep force_async=0,1" \
  "--sweep force_async=0,1 --sweep ioengine=io_uring"; do
  # shellcheck disable=SC2086
  "$bin" --name=e --ioengine=null --size=64k --parse-only $order >/dev/null 2>"$tmp/eng.err" ||
    fail "$order refused: $(cat "$tmp/eng.err")"
done
"$bin" --name=e --size=64k --parse-only --sweep ioengine=psync,io_uring --sweep force_async=0,1 \
  >/dev/null 2>"$tmp/eng.err"
rc=$?
[ $rc -eq 2 ] || fail "psync with force_async: exit $rc, want 2"
grep -q "^iobench: --sweep force_async=0: .*needs ioengine=io_uring" "$tmp/eng.err" ||
  fail "message: $(cat "$tmp/eng.err")"
# --compare-labels without --compare was taken silently.
"$bin" --name=j --ioengine=null --size=64k --compare-labels=a,b >"$tmp/lab.out" 2>"$tmp/lab.err"
rc=$?
[ $rc -eq 2 ] || fail "--compare-labels alone: exit $rc, want 2"
grep -qx "iobench: --compare-labels=a,b: names the two sides of --compare, which is not given" \
  "$tmp/lab.err" || fail "message: $(cat "$tmp/lab.err")"
# A base with no jobs is refused before the run, not after it (exit 1).
"$bin" --name=j --ioengine=null --size=64k --compare "$tmp/empty.json" >"$tmp/empty-run.out" \
  2>"$tmp/empty.err"
rc=$?
[ $rc -eq 2 ] || fail "run with an empty base: exit $rc, want 2"
[ ! -s "$tmp/empty-run.out" ] || fail "run with an empty base ran: $(head -c 300 "$tmp/empty-run.out")"
grep -qx "iobench: compare: $tmp/empty.json holds no jobs" "$tmp/empty.err" ||
  fail "message: $(cat "$tmp/empty.err")"
"$bin" --compare "$tmp/sweep.json" 2>"$tmp/alone.err"
rc=$?
[ $rc -eq 2 ] || fail "--compare BASE alone: exit $rc, want 2"
grep -q "^iobench: --compare $tmp/sweep.json: give the NEW results file" "$tmp/alone.err" ||
  fail "message: $(cat "$tmp/alone.err")"

# NEW named like fio's --output=new.out (no .json suffix) is NEW, not a job
# file.
cp "$tmp/sweep.json" "$tmp/new.out"
"$bin" --compare "$tmp/sweep.json" "$tmp/new.out" >"$tmp/out.txt" 2>"$tmp/out.err" ||
  fail "--compare BASE new.out: exit $? ($(cat "$tmp/out.err"))"
grep -Eq '^1 +[0-9.]+[kM]? +[0-9.]+[kM]? +0\.00$' "$tmp/out.txt" || fail "$(cat "$tmp/out.txt")"

# normal then table: a blank line between the last "Run status" line and
# the table's caption.
"$bin" --name=j --ioengine=null --size=64k --rw=randread --output-format=normal,table \
  >"$tmp/both.txt" || fail "normal,table exited $?"
python3 - "$tmp/both.txt" <<'PY' || fail "no blank line before the table: $(cat "$tmp/both.txt")"
import sys
lines = open(sys.argv[1]).read().splitlines()
i = lines.index("read IOPS")
assert lines[i - 1] == "", lines[i - 2:i + 1]
PY
echo "ok"
