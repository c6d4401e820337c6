#!/bin/bash
# End to end: the seeds' tables made by iobench itself. A sweep of the
# seed-000 job over iodepth 1..128 x force_async 0,1 prints seed 000's table
# (8 rows, two columns); --table-style=ascii gives seed 004's +---+ borders;
# --compare of two JSON runs prints seed 004's base | new | delta shape with
# the right arithmetic; --plot writes a valid SVG (when gnuplot is installed);
# --sweep-cmd hooks run before each point and a failing one stops the sweep
# with its exit code; fio's own JSON works as the BASE of --compare.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
seeds=$2/jobs/seeds

fail() {
  echo "FAIL: $*"
  exit 1
}
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
tmp=$(mktemp -d /var/tmp/iobench_seeds_tables.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/data"
export IOB_DIR=$tmp/data IOB_SIZE=4m IOB_RUNTIME=200ms IOB_IODEPTH=1
seed000=$seeds/seed000_io_uring_buffered_randread.fio

# Seed 000's table: rows iodepth 1..128, columns force_async=0 and 1.
"$bin" "$seed000" --sweep iodepth=1..128:x2 --sweep force_async=0,1 --output-format=table \
  >"$tmp/qd.txt" 2>"$tmp/qd.err" || fail "sweep exited $?: $(cat "$tmp/qd.err")"
cat "$tmp/qd.txt"
python3 - "$tmp/qd.txt" <<'PY' || fail "seed 000 table shape"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "read IOPS by iodepth and force_async", lines[0]
assert re.match(r"4k randread, buffered, io_uring, ext4 on \S+, \S+, \d+ ms each$", lines[1]) \
    or re.match(r"4k randread, buffered, io_uring, \S+", lines[1]), lines[1]
assert lines[2].split() == ["iodepth", "force_async=0", "force_async=1"], lines[2]
rows = lines[3:]
assert len(rows) == 8, rows
for want, row in zip([1, 2, 4, 8, 16, 32, 64, 128], rows):
    cells = row.split()
    assert len(cells) == 3 and cells[0] == str(want), row
    for c in cells[1:]:
        assert re.fullmatch(r"\d+(\.\d+)?[kM]?", c), f"cell {c!r} in {row!r}"
        assert c != "0", row
PY

# The same sweep, smaller, as an ascii table and as one JSON document with a
# plot, and a hook that records each point before it runs.
"$bin" "$seed000" --sweep iodepth=1,2 --sweep force_async=0,1 --output-format=table \
  --table-style=ascii >"$tmp/ascii.txt" || fail "ascii sweep exited $?"
cat "$tmp/ascii.txt"
grep -qx '+---------+---------------+---------------+' "$tmp/ascii.txt" || fail "no +---+ border"
grep -Eqx '\| iodepth \| force_async=0 \| force_async=1 \|' "$tmp/ascii.txt" || fail "ascii header"
[ "$(grep -c '^| [12] ' "$tmp/ascii.txt")" -eq 2 ] || fail "ascii rows"

plot=()
have_gnuplot=0
if command -v gnuplot >/dev/null; then
  have_gnuplot=1
  plot=(--plot="$tmp/qd.svg")
else
  echo "note: gnuplot not installed; --plot not checked"
fi
"$bin" "$seed000" --sweep iodepth=1,2 --sweep-cmd="echo point {} >>$tmp/hook.log" \
  --output-format=json --output="$tmp/sweep.json" "${plot[@]}" || fail "hook sweep exited $?"
[ "$(cat "$tmp/hook.log")" = "point 1
point 2" ] || fail "hook log: $(cat "$tmp/hook.log")"
python3 - "$tmp/sweep.json" <<'PY' || fail "sweep JSON"
import json, sys
d = json.load(open(sys.argv[1]))
pts = [j["iobench"]["point"]["iodepth"] for j in d["jobs"]]
assert pts == ["1", "2"], pts
assert all(j["read"]["total_ios"] > 0 for j in d["jobs"])
sw = d["iobench"]["sweep"]
assert sw["keys"] == ["iodepth"] and sw["points"] == 2, sw
assert "$ echo point 1 >>" in sw["hook_log"], sw["hook_log"]
PY
if [ $have_gnuplot = 1 ]; then
  [ -s "$tmp/qd.gp" ] || fail "no gnuplot script beside the plot"
  python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag == "{http://www.w3.org/2000/svg}svg", r.tag' "$tmp/qd.svg" || fail "not a valid SVG"
fi

# --table-rows/--table-cols pick the keys (seed 000 with its readahead loop
# outermost); a key that is not swept is refused before anything runs.
"$bin" "$seed000" --sweep force_async=0,1 --sweep iodepth=1,2 --output-format=table \
  --table-rows=iodepth --table-cols=force_async >"$tmp/rows.txt" || fail "--table-rows exited $?"
grep -q '^iodepth   force_async=0   force_async=1$' "$tmp/rows.txt" || fail "--table-rows header"
"$bin" "$seed000" --sweep iodepth=1,2 --output-format=table --table-rows=setra \
  >/dev/null 2>"$tmp/rows.err"
rc=$?
[ $rc -eq 2 ] || fail "--table-rows=setra (not swept): exit $rc, want 2"
grep -q "^iobench: --table-rows=setra: not a swept key" "$tmp/rows.err" || fail "$(cat "$tmp/rows.err")"

# A failing hook stops the sweep with its exit code; the points already run
# are still reported.
"$bin" "$seed000" --sweep iodepth=1,2 --sweep-cmd=false --output-format=table \
  >"$tmp/false.txt" 2>"$tmp/false.err"
rc=$?
[ $rc -eq 1 ] || fail "--sweep-cmd=false: exit $rc, want 1"
grep -q "^iobench: --sweep-cmd 'false' failed with exit code 1 at point iodepth=1" "$tmp/false.err" ||
  fail "message: $(cat "$tmp/false.err")"
"$bin" "$seed000" --sweep iodepth=1,2 --sweep-cmd='test {} = 1 || exit 3' --output-format=json \
  >"$tmp/exit3.json" 2>"$tmp/exit3.err"
rc=$?
[ $rc -eq 3 ] || fail "hook exit 3 at point 2: iobench exit $rc"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert [j["iobench"]["point"]["iodepth"] for j in d["jobs"]] == ["1"]' "$tmp/exit3.json" ||
  fail "the point run before the failing hook is not reported"

# Seed 004's shape: two runs of the io_uring job set, compared.
for side in a b; do
  IOB_DEV=$tmp/data/s4.dat IOB_SIZE=4m "$bin" "$seeds/seed004_io_uring.fio" --output-format=json \
    --output="$tmp/$side.json" || fail "seed 004 run $side exited $?"
done
"$bin" --compare "$tmp/a.json" "$tmp/b.json" --table-metric=bw --table-style=ascii \
  --compare-labels='bio(base),blk-mq' >"$tmp/cmp.txt" || fail "--compare exited $?"
cat "$tmp/cmp.txt"
python3 - "$tmp/cmp.txt" "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "compare table"
import json, sys
text, a, b = sys.argv[1:]
lines = open(text).read().splitlines()
rows = [l for l in lines if l.startswith("|")]
border = [l for l in lines if l.startswith("+")]
assert len(border) == 3, border  # top, under the header, bottom
hdr = [c.strip() for c in rows[0].strip("|").split("|")]
assert hdr == ["job", "bio(base)", "blk-mq", "delta"], hdr
base = {j["jobname"]: j for j in json.load(open(a))["jobs"]}
new = {j["jobname"]: j for j in json.load(open(b))["jobs"]}
names = []
for r in rows[1:]:
    name, _, _, delta = [c.strip() for c in r.strip("|").split("|")]
    names.append(name)
    d = "read" if name.endswith("read") else "write"
    x, y = base[name][d]["bw_bytes"], new[name][d]["bw_bytes"]
    want = (y - x) / x * 100
    assert abs(float(delta) - want) <= 0.011, (name, delta, want)
assert names == ["read", "randread", "write", "randwrite"], names
PY

# fio's own JSON as BASE, against a file and against a run made now.
if ! command -v fio >/dev/null; then
  echo "note: fio not installed; fio JSON as --compare BASE not checked"
  echo "ok"
  exit 0
fi
job=(--name=rand_read_4k --ioengine=null --size=16m --bs=4k --rw=randread)
(cd "$tmp" && fio "${job[@]}" --output-format=json >"$tmp/fio.json") || fail "fio exited $?"
"$bin" "${job[@]}" --output-format=json --output="$tmp/iob.json" || fail "null run exited $?"
"$bin" --compare "$tmp/fio.json" "$tmp/iob.json" >"$tmp/fiocmp.txt" || fail "fio compare exit $?"
cat "$tmp/fiocmp.txt"
grep -Eq '^job +.*fio\.json +.*iob\.json +delta$' "$tmp/fiocmp.txt" || fail "fio compare header"
grep -Eq '^rand_read_4k +[0-9.]+[kM]? +[0-9.]+[kM]? +-?[0-9]+\.[0-9]{2}$' "$tmp/fiocmp.txt" ||
  fail "fio compare row"
"$bin" --compare "$tmp/fio.json" "${job[@]}" --output-format=table >"$tmp/fionow.txt" ||
  fail "compare against a run made now exited $?"
grep -Eq '^rand_read_4k +[0-9.]+[kM]? +[0-9.]+[kM]? +-?[0-9]+\.[0-9]{2}$' "$tmp/fionow.txt" ||
  fail "fio compare (this run) row: $(cat "$tmp/fionow.txt")"
echo "ok"
