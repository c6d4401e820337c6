#!/bin/bash
# End to end: --compare matches sweep points by value, as the sweep tells
# values apart (bs=4k and 4096 are one value): a base swept bs=4k,8k and a
# new one swept bs=4096,8K match, the rows carry the base's spelling; values
# that differ still do not match (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
"$bin" "${job[@]}" --sweep bs=4k,8k --output-format=json --output="$tmp/a.json" || fail "base run"
"$bin" "${job[@]}" --sweep bs=4096,8K --output-format=json --output="$tmp/b.json" || fail "new run"

"$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=table >"$tmp/c.out" 2>"$tmp/c.err"
expect_eq "4k,8k against 4096,8K: exit" "$?" 0
grep -q "^4k  " "$tmp/c.out" || fail "row 4k: $(cat "$tmp/c.out" "$tmp/c.err")"
grep -q "^8k  " "$tmp/c.out" || fail "row 8k: $(cat "$tmp/c.out")"
grep -q "only in" "$tmp/c.out" && fail "unmatched rows: $(cat "$tmp/c.out")"
# With a run made now, too.
"$bin" "${job[@]}" --sweep bs=4096,8K --compare "$tmp/a.json" --output-format=table \
  >"$tmp/r.out" 2>"$tmp/r.err"
expect_eq "run against a.json: exit" "$?" 0
grep -q "only in" "$tmp/r.out" && fail "run: unmatched rows: $(cat "$tmp/r.out")"
grep -q "^4096 " "$tmp/r.out" || fail "run: its own table keeps 4096: $(cat "$tmp/r.out")"
# A value that differs is still another point.
"$bin" "${job[@]}" --sweep bs=16k --output-format=json --output="$tmp/d.json" || fail "d run"
"$bin" --compare "$tmp/a.json" "$tmp/d.json" >"$tmp/d.out" 2>"$tmp/d.err"
expect_eq "4k,8k against 16k: exit" "$?" 2
# A file whose points iodepth=1 and iodepth=01 read as one value has
# points --compare cannot tell apart: said so (it said "no job ... matches").
"$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json --output="$tmp/q.json" || fail "q run"
python3 - "$tmp/q.json" "$tmp/amb.json" <<'PY' || fail "amb.json"
import json, sys
d = json.load(open(sys.argv[1]))
d["jobs"][1]["iobench"]["point"]["iodepth"] = "01"
json.dump(d, open(sys.argv[2], "w"))
PY
for args in "$tmp/amb.json $tmp/q.json" "$tmp/q.json $tmp/amb.json" "$tmp/amb.json $tmp/amb.json"; do
  # shellcheck disable=SC2086
  "$bin" --compare $args >"$tmp/a.out" 2>"$tmp/a.err"
  expect_eq "ambiguous points ($args): exit" "$?" 2
  grep -q "amb.json: the points iodepth=1 and iodepth=01 are ambiguous: iodepth reads both as one value" "$tmp/a.err" ||
    fail "ambiguous ($args): $(cat "$tmp/a.err")"
done
"$bin" "${job[@]}" --sweep iodepth=1,2 --compare "$tmp/amb.json" --output-format=json >"$tmp/a.out" 2>"$tmp/a.err"
expect_eq "run against amb.json: exit" "$?" 2
grep -q "are ambiguous" "$tmp/a.err" || fail "run against amb.json: $(cat "$tmp/a.err")"
[ -s "$tmp/a.out" ] && fail "run against amb.json ran: $(head -c 200 "$tmp/a.out")"
[ "$fails" -eq 0 ]
