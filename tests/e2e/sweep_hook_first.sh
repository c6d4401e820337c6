#!/bin/bash
# End to end: a --sweep-cmd hook that fails at the first point stops the
# sweep before any point ran; the JSON report is still whole (no jobs, every
# point in not_run, sweep.stopped, the hook's exit code), as when a later
# point's hook fails. --output was left an empty file, not JSON. The normal
# and table reports say which points were not run and why.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=n --ioengine=null --size=1m --sweep iodepth=1,2)
not_run="not run (--sweep-cmd failed with exit code 1 at point iodepth=1; the sweep stopped there): iodepth=1; iodepth=2"
check_doc() {  # $1: the document, $2: what it is
  python3 - "$1" <<'PY' || fail "$2: document: $(head -c 600 "$1")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["jobs"] == [], d["jobs"]
top = d["iobench"]
assert top["exit_code"] == 1, top
sw = top["sweep"]
assert sw["keys"] == ["iodepth"], sw
assert sw["planned_points"] == 2, sw
assert sw["not_run"] == [{"iodepth": "1"}, {"iodepth": "2"}], sw["not_run"]
assert sw["stopped"]["by"] == "sweep-cmd", sw["stopped"]
assert sw["stopped"]["point"] == {"iodepth": "1"}, sw["stopped"]
assert sw["stopped"]["exit_code"] == 1, sw["stopped"]
assert top.get("interrupted", False) is False, top
PY
}
"$bin" "${job[@]}" --sweep-cmd=false --output-format=json --output="$tmp/h.json" 2>"$tmp/h.err"
expect_eq "--output: exit" "$?" 1
grep -q "sweep-cmd 'false' failed with exit code 1 at point iodepth=1" "$tmp/h.err" ||
  fail "--output: stderr: $(cat "$tmp/h.err")"
check_doc "$tmp/h.json" "--output"
"$bin" "${job[@]}" --sweep-cmd=false --output-format=json >"$tmp/s.json" 2>/dev/null
expect_eq "stdout: exit" "$?" 1
check_doc "$tmp/s.json" "stdout"
# normal and json: the document (first, in fio's order), then the line of
# the points not run.
"$bin" "${job[@]}" --sweep-cmd=false --output-format=normal,json >"$tmp/nj.txt" 2>/dev/null
expect_eq "normal,json: exit" "$?" 1
expect_eq "normal,json: last line" "$(tail -1 "$tmp/nj.txt")" "$not_run"
sed -n '1,/^}/p' "$tmp/nj.txt" >"$tmp/nj.json"
check_doc "$tmp/nj.json" "normal,json"
# The text reports: no point made a record, but normal and table say which
# points were not run and why (an --output file was left empty); terse
# holds records only. stderr says why in each.
for f in normal table terse; do
  "$bin" "${job[@]}" --sweep-cmd=false --output-format=$f --output="$tmp/$f.txt" 2>"$tmp/$f.err"
  expect_eq "$f: exit" "$?" 1
  want=$not_run
  [ $f = terse ] && want=
  expect_eq "$f: output" "$(cat "$tmp/$f.txt")" "$want"
  grep -q "failed with exit code 1 at point iodepth=1" "$tmp/$f.err" || fail "$f: stderr: $(cat "$tmp/$f.err")"
done
"$bin" "${job[@]}" --sweep-cmd=false --output-format=table --table-style=csv >"$tmp/csv.txt" 2>/dev/null
expect_eq "csv: exit" "$?" 1
expect_eq "csv: output" "$(cat "$tmp/csv.txt")" "# $not_run"
# A hook failing at a later point: the normal report ends with the same line.
"$bin" "${job[@]}" --sweep-cmd='test {} = 1' >"$tmp/later.txt" 2>/dev/null
expect_eq "later: exit" "$?" 1
grep -q "^=== iodepth=1 ===" "$tmp/later.txt" || fail "later: no point 1: $(cat "$tmp/later.txt")"
expect_eq "later: last line" "$(tail -1 "$tmp/later.txt")" \
  "not run (--sweep-cmd failed with exit code 1 at point iodepth=2; the sweep stopped there): iodepth=2"
[ "$fails" -eq 0 ]
