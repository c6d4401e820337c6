#!/bin/bash
# End to end: what a sweep table's cell is (docs/sweep.md).
# - --table-metric=bw_kib gives KiB/s (seed 002's "Bw (KiB/sec)"), in the
#   caption and in csv's cells alike.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
tmp=$(mktemp -d /var/tmp/iobench_sweep_table_cells.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.bash"

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

[ "$fails" -eq 0 ]
