#!/bin/bash
# End to end: --compare BASE.json NEW.json --output-format=json writes the
# comparison as one JSON document (iobench.compare, as a run's document
# holds it), not the text tables; terse alone is refused, naming the
# format; normal and table still give the tables (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
job=(--name=j --ioengine=null --size=64k)
"$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json --output="$tmp/a.json" || fail "base run"
"$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json --output="$tmp/b.json" || fail "new run"

"$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=json >"$tmp/c.out" 2>"$tmp/c.err"
expect_eq "json: exit" "$?" 0
python3 - "$tmp/c.out" <<'PY' || fail "json: not one JSON document: $(head -5 "$tmp/c.out")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["iobench"]["compare"]["rows"]
assert [r["point"] for r in rows] == [{"iodepth": "1"}, {"iodepth": "2"}], rows
assert all(r["metric"] == "iops" for r in rows), rows
PY
"$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=json,table >"$tmp/ct.out" 2>&1
expect_eq "json,table: exit" "$?" 0
grep -q '"compare"' "$tmp/ct.out" || fail "json,table: no JSON: $(cat "$tmp/ct.out")"
grep -q "^iodepth .*delta$" "$tmp/ct.out" || fail "json,table: no table: $(cat "$tmp/ct.out")"
"$bin" --compare "$tmp/a.json" "$tmp/b.json" >"$tmp/n.out" 2>&1
expect_eq "normal: exit" "$?" 0
grep -q "^iodepth .*delta$" "$tmp/n.out" || fail "normal: no table: $(cat "$tmp/n.out")"
"$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=terse >"$tmp/t.out" 2>"$tmp/t.err"
expect_eq "terse: exit" "$?" 2
grep -q "output-format=terse has no form of a comparison" "$tmp/t.err" ||
  fail "terse: message: $(cat "$tmp/t.err")"
# Beside another format terse was dropped without a word (exit 0).
for fmts in normal,terse json,terse terse,table; do
  "$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=$fmts >"$tmp/t.out" 2>"$tmp/t.err"
  expect_eq "$fmts: exit" "$?" 2
  grep -qF -- "--output-format=$fmts: terse has no form of a comparison; use json (the comparison as data), or normal or table (the delta tables), without terse" "$tmp/t.err" ||
    fail "$fmts: message: $(cat "$tmp/t.err")"
  [ -s "$tmp/t.out" ] && fail "$fmts: wrote $(head -c 200 "$tmp/t.out")"
done
[ "$fails" -eq 0 ]
