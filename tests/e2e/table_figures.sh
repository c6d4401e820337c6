#!/bin/bash
# End to end: what the sweep tables and the plot show for a figure a point
# has no measurement of, and how a cell of several jobs reads (docs/sweep.md).
# - A direction a point's rw= never asked for is "-" in the table and NaN in
#   the plot's data (it was 0, and the IOPS line dropped to 0 there).
# - The CPU percent of numjobs clones (no group_reporting) is fio's
#   group_reporting figure, their CPU time over their summed run times: it
#   was their percents added up (195 against 97.6 for the same jobs).
# - --compare's JSON rows have the same figures in a run's document and
#   from two files (six decimals; the files' delta_pct had full precision).
# - A metric no cell has (lat_p99 without lat_percentiles=1) is said under
#   the table, as --compare says it.
# - With --repeat, a cell of numjobs clones has a min-max range (of each
#   run's figure of the clones together), as with group_reporting.
# - A caption says the block size and rw at their defaults (4k read), as
#   it says the default buffered.
# - A group_reporting entry of jobs with different rw is not captioned
#   with the last job's rw, nor with its bs, iodepth or buffered
#   (iobench.member_options).
# - A table of one job (of several) names its own file systems only.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"

# --sweep rw=read,write,randrw: "write 0" in the read table, "read 0" in the
# write table.
"$bin" --name=n --ioengine=null --size=64k --sweep rw=read,write,randrw --output-format=table \
  --plot="$tmp/x.png" >"$tmp/rw.out" 2>"$tmp/rw.err"
grep -A4 '^read IOPS by rw' "$tmp/rw.out" | grep -qE '^write +-$' ||
  fail "read table: the write point is not '-': $(cat "$tmp/rw.out")"
grep -A4 '^write IOPS by rw' "$tmp/rw.out" | grep -qE '^read +-$' ||
  fail "write table: the read point is not '-': $(cat "$tmp/rw.out")"
grep -qE '^"read" [0-9.]+ NaN$' "$tmp/x.gp" ||
  fail "plot: the read point's write IOPS is not NaN: $(grep -A4 '^\$metric' "$tmp/x.gp")"
grep -qE '^"write" NaN [0-9.]+$' "$tmp/x.gp" ||
  fail "plot: the write point's read IOPS is not NaN: $(grep -A4 '^\$metric' "$tmp/x.gp")"

# The clones' cell against the figure fio's group_reporting gives them,
# from the same file (CPU percents of two runs would differ anyway).
"$bin" --name=j --ioengine=null --size=2g --numjobs=2 --output-format=json \
  --output="$tmp/g0.json" 2>"$tmp/g0.err" || fail "numjobs run: exit $? $(cat "$tmp/g0.err")"
"$bin" --compare "$tmp/g0.json" "$tmp/g0.json" --table-metric=usr_cpu,sys_cpu \
  --output-format=json >"$tmp/g0_cmp.json" 2>"$tmp/g0_cmp.err" ||
  fail "clones compare: exit $? $(cat "$tmp/g0_cmp.err")"
python3 - "$tmp/g0.json" "$tmp/g0_cmp.json" <<'PY' || fail "clones' CPU percent is not fio's group figure"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
rows = json.load(open(sys.argv[2]))["iobench"]["compare"]["rows"]
assert len(jobs) == 2, len(jobs)
for metric in ("usr_cpu", "sys_cpu"):
    rt = sum(j["job_runtime"] for j in jobs)
    assert rt > 0, "the clones ran no measurable time"
    want = sum(j[metric] * j["job_runtime"] for j in jobs) / rt
    got = [r["base"] for r in rows if r["metric"] == metric][0]
    added = sum(j[metric] for j in jobs)
    print(metric, "cell", got, "group figure", want, "added up", added)
    assert abs(got - want) <= 1e-6 * max(want, 1) + 1e-6, (got, want)
PY

# A run compared now, and the same two documents compared as files: bw
# (whole bytes/s in the JSON) gives both sides the same inputs.
"$bin" --name=c --ioengine=null --size=1g --bs=4k --output-format=json \
  --output="$tmp/cb.json" 2>"$tmp/cb.err" || fail "base run: exit $? $(cat "$tmp/cb.err")"
"$bin" --name=c --ioengine=null --size=1g --bs=64k --compare "$tmp/cb.json" --table-metric=bw \
  --output-format=json --output="$tmp/cn.json" 2>"$tmp/cn.err" ||
  fail "run compared now: exit $? $(cat "$tmp/cn.err")"
"$bin" --compare "$tmp/cb.json" "$tmp/cn.json" --table-metric=bw --output-format=json \
  >"$tmp/cf.json" 2>"$tmp/cf.err" || fail "files compared: exit $? $(cat "$tmp/cf.err")"
python3 - "$tmp/cn.json" "$tmp/cf.json" <<'PY' || fail "compare rows differ between a run and two files"
import json, sys
run = json.load(open(sys.argv[1]))["iobench"]["compare"]["rows"]
files = json.load(open(sys.argv[2]))["iobench"]["compare"]["rows"]
print("run", [(r["base"], r["new"], r["delta_pct"]) for r in run])
print("files", [(r["base"], r["new"], r["delta_pct"]) for r in files])
assert len(run) == len(files) == 1, (run, files)
for k in ("base", "new", "delta_pct"):
    assert run[0][k] == files[0][k], (k, run[0][k], files[0][k])
    assert round(files[0][k], 6) == files[0][k], (k, files[0][k])
PY

"$bin" --name=l --ioengine=null --size=64k --sweep iodepth=1,2 --output-format=table \
  --table-metric=lat_p99 >"$tmp/l.out" 2>"$tmp/l.err" || fail "lat_p99 run: exit $? $(cat "$tmp/l.err")"
grep -q '^no lat_p99 in the results: .*lat_percentiles=1' "$tmp/l.out" ||
  fail "lat_p99 without lat_percentiles=1: no note: $(cat "$tmp/l.out")"
"$bin" --name=l --ioengine=null --size=64k --lat_percentiles=1 --sweep iodepth=1,2 \
  --output-format=table --table-metric=lat_p99 >"$tmp/l1.out" 2>&1
grep -q '^no lat_p99' "$tmp/l1.out" && fail "lat_p99 with lat_percentiles=1: a note: $(cat "$tmp/l1.out")"

"$bin" --name=j --ioengine=null --size=16m --numjobs=2 --repeat=3 --output-format=table \
  >"$tmp/r.out" 2>"$tmp/r.err" || fail "repeat clones: exit $? $(cat "$tmp/r.err")"
grep -qE '^j +[0-9.]+[kMG]? \([0-9.]+[kMG]?-[0-9.]+[kMG]?\)$' "$tmp/r.out" ||
  fail "repeat clones: no range: $(cat "$tmp/r.out")"
grep -q '^no min-max range' "$tmp/r.out" && fail "repeat clones: a note of no range: $(cat "$tmp/r.out")"
"$bin" --name=j --ioengine=null --size=16m --numjobs=2 --repeat=3 --group_reporting \
  --output-format=table >"$tmp/rg.out" 2>"$tmp/rg.err" || fail "repeat group: exit $?"
grep -qE '^j +[0-9.]+[kMG]? \([0-9.]+[kMG]?-[0-9.]+[kMG]?\)$' "$tmp/rg.out" ||
  fail "repeat group_reporting: no range: $(cat "$tmp/rg.out")"

"$bin" --name=x --ioengine=null --size=4m --output-format=table >"$tmp/d.out" 2>"$tmp/d.err" ||
  fail "defaults run: exit $? $(cat "$tmp/d.err")"
expect_eq "caption with default bs and rw" "$(sed -n 2p "$tmp/d.out" | cut -d, -f1-3)" \
  "4k read, buffered, null"

"$bin" --ioengine=null --size=1m --group_reporting --name=a --rw=read --name=b --rw=write \
  --sweep bs=4k,8k --output-format=table >"$tmp/g.out" 2>"$tmp/g.err" ||
  fail "group run: exit $? $(cat "$tmp/g.err")"
grep -q '^write, ' "$tmp/g.out" && fail "group of read and write jobs captioned 'write': $(cat "$tmp/g.out")"
expect_eq "group of read and write jobs: caption" "$(sed -n 2p "$tmp/g.out" | cut -d, -f1-2)" \
  "buffered, null"

# A group of a 4k QD1 direct job and a 64k QD16 buffered one was captioned
# with the last job's options: `64k read, buffered, null, iodepth=16`.
cat >"$tmp/g2.fio" <<'EOF'
[global]
ioengine=null
size=1m
group_reporting

[a]
bs=4k
iodepth=1
direct=1

[b]
bs=64k
iodepth=16
EOF
"$bin" "$tmp/g2.fio" --output-format=table,json --output="$tmp/g2.out" 2>"$tmp/g2.err" ||
  fail "group options run: exit $? $(cat "$tmp/g2.err")"
expect_eq "group of 4k QD1 and 64k QD16 jobs: caption" \
  "$(grep -A1 '^read IOPS' "$tmp/g2.out" | sed -n 2p | cut -d, -f1-2)" "read, null"
python3 - "$tmp/g2.out" <<'PY' || fail "group entry's JSON: $(cat "$tmp/g2.out")"
import json, sys
text = open(sys.argv[1]).read()
job = json.JSONDecoder().raw_decode(text[text.index("{"):])[0]["jobs"][0]
# fio's own field stays the last member's, as fio writes it.
assert job["job options"] == {"bs": "64k", "iodepth": "16"}, job["job options"]
assert job["iobench"]["member_options"] == {
    "bs": ["4k", "64k"], "iodepth": ["1", "16"], "direct": ["1", None]}, job["iobench"]
PY

mkdir -p "$tmp/shm" && ext_dir=$(mktemp -d /tmp/iobench_e2e_ext.XXXXXX) || exit 1
trap 'cd /; rm -rf "$tmp" "$ext_dir"' EXIT
if [ "$(stat -f -c %T "$ext_dir")" != "$(stat -f -c %T "$tmp")" ]; then
  "$bin" --ioengine=psync --size=1m --rw=read --name=one --filename="$tmp/shm/t1" --name=two \
    --filename="$ext_dir/t2" --sweep iodepth=1,2 --sweep bs=4k,8k --output-format=table \
    >"$tmp/t.out" 2>"$tmp/t.err" || fail "targets run: exit $? $(cat "$tmp/t.err")"
  grep -A1 'job one$' "$tmp/t.out" | tail -1 | grep -q ' / ' &&
    fail "job one's table names both file systems: $(cat "$tmp/t.out")"
  grep -A1 'job two$' "$tmp/t.out" | tail -1 | grep -q ' / ' &&
    fail "job two's table names both file systems: $(cat "$tmp/t.out")"
else
  echo "skip: /tmp and $tmp are on one file system"
fi

[ "$fails" -eq 0 ]
