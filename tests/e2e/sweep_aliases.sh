#!/bin/bash
# End to end: a sweep key typed as an alias (blocksize for bs) is the
# option's own key everywhere: --table-rows/--table-cols name it either way,
# the JSON's points hold "bs", a --sweep-cmd may use either name, and
# --compare matches a blocksize= sweep (also one written before keys were
# canonical) with a bs= sweep (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
tmp=$(mktemp -d /var/tmp/iobench_sweep_aliases.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
job=(--name=n --ioengine=null --size=64k)

"$bin" "${job[@]}" --sweep blocksize=4k,8k --sweep iodepth=1,2 --table-cols=bs \
  --output-format=table >"$tmp/t.out" 2>"$tmp/t.err" || bad "--table-cols=bs: exit $? $(cat "$tmp/t.err")"
grep -q "^iodepth  *bs=4k  *bs=8k$" "$tmp/t.out" || bad "table: $(cat "$tmp/t.out")"
"$bin" "${job[@]}" --sweep bs=4k,8k --sweep iodepth=1,2 --table-rows=blocksize \
  --output-format=table >"$tmp/t2.out" 2>"$tmp/t2.err" ||
  bad "--table-rows=blocksize: exit $? $(cat "$tmp/t2.err")"
grep -q "^bs  *iodepth=1  *iodepth=2$" "$tmp/t2.out" || bad "table: $(cat "$tmp/t2.out")"

"$bin" "${job[@]}" --sweep blocksize=4k,8k --sweep-cmd='echo {blocksize}' --output-format=json \
  --output="$tmp/a.json" 2>"$tmp/a.err" || bad "blocksize sweep: exit $? $(cat "$tmp/a.err")"
python3 - "$tmp/a.json" <<'PY' || bad "JSON keys: $(head -c 2000 "$tmp/a.json")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["iobench"]["sweep"]["keys"] == ["bs"], doc["iobench"]["sweep"]["keys"]
assert [j["iobench"]["point"] for j in doc["jobs"]] == [{"bs": "4k"}, {"bs": "8k"}]
assert "$ echo 8k" in doc["iobench"]["sweep"]["hook_log"], doc["iobench"]["sweep"]["hook_log"]
PY
"$bin" "${job[@]}" --sweep bs=4k,8k --output-format=json --output="$tmp/b.json" ||
  bad "bs sweep: exit $?"
# A file from before: its points keyed "blocksize".
python3 - "$tmp/a.json" "$tmp/old.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["iobench"]["sweep"]["keys"] = ["blocksize"]
for j in doc["jobs"]:
    j["iobench"]["point"] = {"blocksize": j["iobench"]["point"]["bs"]}
json.dump(doc, open(sys.argv[2], "w"))
PY
for base in a old; do
  "$bin" --compare "$tmp/$base.json" "$tmp/b.json" >"$tmp/c.out" 2>"$tmp/c.err" ||
    bad "compare $base.json b.json: exit $? $(cat "$tmp/c.err")"
  grep -Eq "^8k +[0-9.]+k +[0-9.]+k +-?[0-9.]+$" "$tmp/c.out" || bad "compare $base: $(cat "$tmp/c.out")"
  grep -q "only in" "$tmp/c.out" && bad "compare $base: $(cat "$tmp/c.out")"
done
[ "$fails" -eq 0 ]
