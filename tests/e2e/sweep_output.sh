#!/bin/bash
# The JSON document of a sweep and of --repeat, through the binary, null
# engine (no disk). $1: iobench binary, $2: source dir.
#  - written like a single run's (docs/output.md): fio's key order and text
#    layout ("iops" : 256000.000000), so that greps written against fio's
#    JSON read a sweep's too (it was doc.dump(2): keys sorted, "iops": 2.0e5);
#  - --compare BASE.json with a run made now: the delta table goes with the
#    text formats only; --output-format=json stays one JSON document (the
#    table was appended to it) and carries the comparison in iobench.compare.
set -u
bin=$(realpath "$1")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

job=(--name=a --ioengine=null --size=1m --rw=randread)
"$bin" "${job[@]}" --output-format=json >one.json || fail "single run exited $?"
"$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json >sweep.json || fail "sweep exited $?"
"$bin" "${job[@]}" --repeat=2 --output-format=json >repeat.json || fail "repeat exited $?"
for f in sweep.json repeat.json; do
  grep -q '"iops": ' "$f" && fail "$f: nlohmann's layout, not fio's: $(grep -m1 '"iops": ' "$f")"
  # Each job's read, write and trim iops lines as fio writes them (8 spaces:
  # jobs[].read); two points, or one merged repeat.
  n=$(grep -cE '^        "iops" : [0-9]+\.[0-9]{6},$' "$f")
  want=$([ "$f" = sweep.json ] && echo 6 || echo 3)
  [ "$n" = "$want" ] || fail "$f: $n iops lines in fio's layout, want $want"
done
python3 - <<'PY' || exit 1
import json
def keys(path):
    return json.load(open(path), object_pairs_hook=lambda p: p)
one, sweep, rep = keys("one.json"), keys("sweep.json"), keys("repeat.json")
top = [k for k, _ in one]
for name, doc in (("sweep", sweep), ("repeat", rep)):
    assert [k for k, _ in doc] == top, (name, [k for k, _ in doc], top)
    jobs = dict(doc)["jobs"]
    # A job's keys in the single run's order (the sweep adds nothing new
    # at the job's top level: its point goes under "iobench").
    assert [k for k, _ in jobs[0]] == [k for k, _ in dict(one)["jobs"][0]], name
    assert [k for k, _ in dict(jobs[0])["read"]] == [k for k, _ in dict(dict(one)["jobs"][0])["read"]]
PY

"$bin" "${job[@]}" --compare one.json --output-format=json --output=cmp.json ||
  fail "--compare with json exited $?"
python3 - <<'PY' || fail "cmp.json is not one JSON document: $(tail -3 cmp.json)"
import json
c = json.load(open("cmp.json"))["iobench"]["compare"]
assert c["base"] == "one.json" and c["new"] == "this run", c
assert [(r["job"], r["metric"], r["direction"]) for r in c["rows"]] == [("a", "iops", "read")], c
assert c["only_in_base"] == [] and c["only_in_new"] == [], c
PY
"$bin" "${job[@]}" --compare one.json --output-format=terse >cmp.terse || fail "terse exited $?"
grep -q 'delta' cmp.terse && fail "the delta table was appended to terse output"
"$bin" "${job[@]}" --compare one.json --output-format=table >cmp.txt || fail "table exited $?"
# Column widths follow the numbers (a slow run under ASan prints -83.33), so
# only the order of the header words is fixed.
grep -qE '^job +one\.json +this run +delta$' cmp.txt || fail "no delta table with table: $(cat cmp.txt)"
"$bin" "${job[@]}" --compare one.json --output-format=json,normal >both.txt || fail "json,normal exited $?"
grep -qE '^job +one\.json +this run +delta$' both.txt || fail "no delta table with normal"
echo ok
