#!/bin/bash
# End to end: --sweep-cmd runs before each run of a point, each --repeat run
# included (docs/sweep.md): the hook prepares a run (drops the caches), and
# run once per point it left runs 2..N warm. Its log names the run; a hook
# failing before a later run stops the sweep with that point not run.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=j --ioengine=null --size=64k --sweep bs=4k,8k --repeat=3 --output-format=json)
"$bin" "${job[@]}" --sweep-cmd="echo {bs} >>$tmp/calls" >"$tmp/o.json" 2>"$tmp/err"
expect_eq "exit" "$?" 0
expect_eq "hook runs" "$(tr '\n' ' ' <"$tmp/calls")" "4k 4k 4k 8k 8k 8k "
python3 - "$tmp/o.json" <<'PY' || fail "hook_log"
import json, sys
log = json.load(open(sys.argv[1]))["iobench"]["sweep"]["hook_log"]
want = [f"# point: bs={b}, repeat {k}/3" for b in ("4k", "8k") for k in (1, 2, 3)]
got = [l for l in log.splitlines() if l.startswith("# point:")]
assert got == want, got
PY
# Fails before run 2 of bs=8k: the sweep stops there, bs=8k is not run.
"$bin" "${job[@]}" --sweep-cmd="echo x >>$tmp/n; [ {bs} = 4k ] || [ \$(wc -l <$tmp/n) -lt 5 ]" \
  >"$tmp/f.json" 2>"$tmp/f.err"
expect_eq "failing hook: exit" "$?" 1
expect_eq "failing hook: runs" "$(wc -l <"$tmp/n")" 5
# The error names the run it prepared, as its log does.
grep -qF "failed with exit code 1 at point bs=8k, repeat 2/3; the sweep stops here" "$tmp/f.err" ||
  fail "failing hook: stderr does not name the run: $(cat "$tmp/f.err")"
python3 - "$tmp/f.json" <<'PY' || fail "failing hook: document"
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["iobench"]["sweep"]
assert sw["not_run"] == [{"bs": "8k"}], sw["not_run"]
assert sw["stopped"]["point"] == {"bs": "8k"}, sw["stopped"]
assert {j["iobench"]["point"]["bs"] for j in d["jobs"]} == {"4k"}
assert d["jobs"][0]["iobench"]["repeat"]["n"] == 3
PY
[ "$fails" -eq 0 ]
