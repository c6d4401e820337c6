#!/bin/bash
# End to end: what a sweep table's cell is (docs/sweep.md).
# - Several jobs of one row (numjobs clones) are fio's group line: their
#   bytes over the longest run time, not each one's own rate added up.
#   Separate jobs sharing a name in one group are rows of their own.
# - --table-metric=bw_kib gives KiB/s (seed 002's "Bw (KiB/sec)"), in the
#   caption and in csv's cells alike.
# - A swept alias is keyed by fio's name, the one the JSON's "job options"
#   use: --sweep iodepth_batch_submit=... is iodepth_batch, as a job's column.
# - --compare with a run made now and nothing matching exits 2, as with two
#   files.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}

# Two separate jobs named n in one group: two rows, each its own figure
# (they were one row, added up as if they were clones).
pair=(--ioengine=null --rw=read --bs=4k --rate=100m --name=n --size=10m --name=n --size=20m)
"$bin" "${pair[@]}" --output-format=json --output="$tmp/pair.json" 2>"$tmp/pair.err" ||
  fail "pair run: exit $? $(cat "$tmp/pair.err")"
"$bin" --compare "$tmp/pair.json" "$tmp/pair.json" --table-metric=bw,iops --output-format=json \
  >"$tmp/pair_cmp.json" 2>"$tmp/pair_cmp.err" || fail "pair compare: exit $? $(cat "$tmp/pair_cmp.err")"
python3 - "$tmp/pair.json" "$tmp/pair_cmp.json" <<'PY' || fail "two jobs of one name: not two rows"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = json.load(open(sys.argv[2]))["iobench"]["compare"]["rows"]
reads = [j["read"] for j in doc["jobs"]]
assert len(reads) == 2, reads
iops = sorted(r["base"] for r in rows if r["metric"] == "iops")
want = sorted(r["total_ios"] * 1000 / r["runtime"] for r in reads)
print("rows", iops, "jobs", want)
assert len(iops) == 2 and all(abs(a - b) < 1e-6 * b for a, b in zip(iops, want)), (iops, want)
PY

# The brief's repro: numjobs=4, no group_reporting; the table against the
# normal report's READ: bw= line (3-4 significant digits there).
"$bin" --name=n --ioengine=null --rw=read --bs=4k --size=1g --numjobs=4 --sweep iodepth=1 \
  --output-format=normal,table --table-metric=bw_kib --table-style=csv >"$tmp/nj.out" \
  2>"$tmp/nj.err" || fail "numjobs run: exit $? $(cat "$tmp/nj.err")"
python3 - "$tmp/nj.out" <<'PY' || fail "numjobs: table and READ: bw= disagree: $(cat "$tmp/nj.out")"
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"READ: bw=([0-9.]+)([KMGT]i)B/s", text)
assert m, "no READ: group line"
line_kib = float(m.group(1)) * {"Ki": 1, "Mi": 1024, "Gi": 1024**2, "Ti": 1024**3}[m.group(2)]
assert "# read bandwidth (KiB/s) by iodepth" in text, "caption"
cell = float(re.search(r"^1,([0-9.]+)$", text, re.M).group(1))
print("READ: bw=", line_kib, "KiB/s; cell", cell)
assert abs(cell - line_kib) <= 0.01 * line_kib, (cell, line_kib)
PY

# bw_kib: KiB/s in the caption and in csv's cells (bw_bytes / 1024).
"$bin" --name=k --ioengine=null --rw=read --bs=64k --size=64m --sweep iodepth=1,2 \
  --output-format=json,table --table-metric=bw_kib --table-style=csv --output="$tmp/k.out" \
  2>"$tmp/k.err" || fail "bw_kib run: exit $? $(cat "$tmp/k.err")"
python3 - "$tmp/k.out" <<'PY' || fail "bw_kib csv: $(tail -n 6 "$tmp/k.out")"
import json, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text)
table = text[end:].strip().splitlines()
assert table[0] == "# read bandwidth (KiB/s) by iodepth", table[0]
assert table[2] == "iodepth,k", table[2]
for job, row in zip(doc["jobs"], table[3:]):
    depth, cell = row.split(",")
    assert depth == job["iobench"]["point"]["iodepth"], row
    assert abs(float(cell) - job["read"]["bw_bytes"] / 1024) < 1e-3, (cell, job["read"]["bw_bytes"])
PY

# One option, one name: iodepth_batch (fio's name, the JSON's job options).
for key in iodepth_batch iodepth_batch_submit; do
  "$bin" --name=b --ioengine=null --size=64k --iodepth=8 --sweep "$key=1,8" \
    --output-format=json,table --output="$tmp/b.out" 2>"$tmp/b.err" ||
    fail "--sweep $key: exit $? $(cat "$tmp/b.err")"
  grep -q "^read IOPS by iodepth_batch$" "$tmp/b.out" || fail "--sweep $key caption: $(tail -n 5 "$tmp/b.out")"
  python3 - "$tmp/b.out" <<'PY' || fail "--sweep $key: JSON point key"
import json, sys
doc, _ = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())
assert doc["iobench"]["sweep"]["keys"] == ["iodepth_batch"], doc["iobench"]["sweep"]["keys"]
for j in doc["jobs"]:
    assert list(j["iobench"]["point"]) == ["iodepth_batch"], j["iobench"]["point"]
    assert j["job options"]["iodepth_batch"] == j["iobench"]["point"]["iodepth_batch"], j["job options"]
PY
done
# A job file's column has the same name.
cat >"$tmp/s002.fio" <<'EOF'
[global]
ioengine=null
rw=randread
bs=64k
size=1m
[a]
iodepth=64
iodepth_batch=8
[b]
iodepth=64
iodepth_batch_submit=4
EOF
"$bin" "$tmp/s002.fio" --output-format=table --table-metric=bw_kib >"$tmp/col.out" 2>"$tmp/col.err" ||
  fail "job file table: exit $? $(cat "$tmp/col.err")"
grep -Eq "^job +iodepth_batch +bw_kib$" "$tmp/col.out" || fail "job file column: $(cat "$tmp/col.out")"
# --table-rows takes either name.
"$bin" --name=b --ioengine=null --size=64k --iodepth=8 --sweep iodepth_batch=1,8 --sweep bs=4k,8k \
  --table-rows=iodepth_batch_submit --output-format=table >"$tmp/r.out" 2>"$tmp/r.err" ||
  fail "--table-rows=iodepth_batch_submit: exit $? $(cat "$tmp/r.err")"
grep -Eq "^iodepth_batch +bs=4k +bs=8k$" "$tmp/r.out" || fail "--table-rows: $(cat "$tmp/r.out")"

# --compare against a run made now that matches nothing: exit 2, as two
# files, and before the run: nothing is written, no file is laid out.
"$bin" --name=other --ioengine=null --size=64k --output-format=json --output="$tmp/o.json" ||
  fail "base run: exit $?"
"$bin" --name=s --filename="$tmp/s.dat" --size=64k --sweep iodepth=1,2 --compare "$tmp/o.json" \
  --output-format=table >"$tmp/nm.out" 2>"$tmp/nm.err"
expect_eq "no match, run now: exit" "$?" 2
grep -q "^iobench: compare: no job of $tmp/o.json matches a job of this run" "$tmp/nm.err" ||
  fail "no match message: $(cat "$tmp/nm.err")"
grep -q "^only in this run: s \[iodepth=2\]$" "$tmp/nm.err" || fail "only in: $(cat "$tmp/nm.err")"
[ ! -s "$tmp/nm.out" ] || fail "no match: a run was reported: $(cat "$tmp/nm.out")"
[ ! -e "$tmp/s.dat" ] || fail "no match: the job's file was laid out before the refusal"
# The same check with --parse-only.
"$bin" --name=s --ioengine=null --size=64k --sweep iodepth=1,2 --compare "$tmp/o.json" \
  --parse-only >/dev/null 2>"$tmp/po.err"
expect_eq "no match, --parse-only: exit" "$?" 2
# Jobs that do match run: same names in two reporting groups ("x (g=1)"),
# clones, a sweep point shared with the base.
cat >"$tmp/g.fio" <<'JOB'
[x]
ioengine=null
size=64k
numjobs=2
[x]
ioengine=null
size=64k
rw=write
stonewall
JOB
"$bin" "$tmp/g.fio" --sweep iodepth=1,2 --output-format=json --output="$tmp/g.json" ||
  fail "groups base: exit $?"
"$bin" "$tmp/g.fio" --sweep iodepth=2,4 --compare "$tmp/g.json" --output-format=table \
  --table-style=csv >"$tmp/gm.out" 2>"$tmp/gm.err"
expect_eq "partial match: exit" "$?" 0
grep -Eq '^x \(g=1\) \[iodepth=2\],[0-9]+,[0-9]+,' "$tmp/gm.out" ||
  fail "groups matched: $(cat "$tmp/gm.out" "$tmp/gm.err")"
grep -q "^# only in this run: x (g=0) \[iodepth=4\]$" "$tmp/gm.out" ||
  fail "partial match, only in: $(cat "$tmp/gm.out")"
"$bin" --name=s --ioengine=null --size=64k --sweep iodepth=1,2 --output-format=json \
  --output="$tmp/s.json" || fail "new run: exit $?"
"$bin" --compare "$tmp/o.json" "$tmp/s.json" >/dev/null 2>&1
expect_eq "no match, two files: exit" "$?" 2

[ "$fails" -eq 0 ]
