#!/bin/bash
# End to end: --compare against a sweep that was stopped says that the
# points it never ran were not run, not that their jobs are missing
# (docs/sweep.md): "only in a.json: j [iodepth=4]" read as if b.json had
# no such job, while its iobench.sweep.not_run said why.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=j --ioengine=null --size=1m)
"$bin" "${job[@]}" --sweep iodepth=1,2,4 --output-format=json --output=a.json 2>"$tmp/e" ||
  fail "a.json: $(cat "$tmp/e")"
# A hook that fails at iodepth=4 stops the sweep there (exit 1).
"$bin" "${job[@]}" --sweep iodepth=1,2,4 --sweep-cmd='test {iodepth} != 4' \
  --output-format=json --output=b.json 2>"$tmp/e"
expect_eq "b.json: exit" "$?" 1
hook="--sweep-cmd failed with exit code 1 at point iodepth=4; the sweep stopped there"
# notes A B: the lines under the delta tables of --compare A B.
notes() { "$bin" --compare "$1" "$2" 2>&1 | grep -E '^(only in|not run)'; }
expect_eq "base whole, new stopped" "$(notes a.json b.json)" "not run in b.json ($hook): j [iodepth=4]"
expect_eq "base stopped, new whole" "$(notes b.json a.json)" "not run in b.json ($hook): j [iodepth=4]"
# Stopped by a signal: the document says no more than that.
python3 -c 'import json, sys
d = json.load(open("b.json"))
del d["iobench"]["sweep"]["stopped"]
json.dump(d, open("c.json", "w"))'
expect_eq "stopped by a signal" "$(notes a.json c.json)" \
  "not run in c.json (the sweep was stopped): j [iodepth=4]"
# A point neither planned stays "only in"; a run made now is compared alike.
"$bin" "${job[@]}" --sweep iodepth=1,2,4,8 --compare b.json >"$tmp/o" 2>&1
expect_eq "run now against a stopped sweep" "$(grep -E '^(only in|not run)' "$tmp/o")" \
  "not run in b.json ($hook): j [iodepth=4]
only in this run: j [iodepth=8]"
# The JSON says why beside the entry.
expect_eq "JSON only_in_new" "$("$bin" --compare b.json a.json --output-format=json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["iobench"]["compare"]["only_in_new"])')" \
  "[{'job': 'j', 'point': {'iodepth': '4'}, 'not_run': '$hook'}]"
[ "$fails" -eq 0 ]
