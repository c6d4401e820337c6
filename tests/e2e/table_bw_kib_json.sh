#!/bin/bash
# bw_kib cells are the JSON "bw" they are documented to equal (fio's and
# iobench's: bw_bytes / 1024 rounded down); they were rounded to the
# nearest, one more than the file (fio's "bw": 2473056, the cell 2473057).
# Checked on a sweep's table and on --compare of an iobench and a fio file.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: python3 is needed to read the JSON"; exit 77; }
job=(--name=j --ioengine=null --size=997000 --bs=1000 --rw=read)
"$bin" "${job[@]}" --sweep iodepth=1,2,4,8 --output-format=json,table --table-metric=bw_kib \
  --table-style=csv --output=s.out 2>err.txt
expect_eq "sweep: exit" "$?" 0
python3 - s.out <<'PY' || fail "sweep: cells are not the JSON bw: $(cat s.out | tail -8)"
import json, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text)
want = {j["iobench"]["point"]["iodepth"]: str(j["read"]["bw"]) for j in doc["jobs"]}
rows = [l.split(",") for l in text[end:].splitlines() if l and l[0].isdigit()]
got = {r[0]: r[1] for r in rows}
assert got == want, (got, want)
PY
"$bin" "${job[@]}" --output-format=json >iob.json 2>err.txt || fail "iobench run"
if command -v fio >/dev/null; then
  fio --thread "${job[@]}" --output-format=json >fio.json 2>/dev/null || fail "fio run"
else
  cp iob.json fio.json
fi
"$bin" --compare fio.json iob.json --table-metric=bw_kib --output-format=json >c.json 2>err.txt
expect_eq "compare: exit" "$?" 0
python3 - <<'PY' || fail "compare: figures are not the JSON bw: $(cat c.json)"
import json
row = json.load(open("c.json"))["iobench"]["compare"]["rows"][0]
f = json.load(open("fio.json"))["jobs"][0]["read"]["bw"]
i = json.load(open("iob.json"))["jobs"][0]["read"]["bw"]
assert (row["base"], row["new"]) == (f, i), (row, f, i)
PY
[ "$fails" -eq 0 ]
