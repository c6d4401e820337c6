#!/bin/bash
# End to end: what the sweep tables and the plot show for a figure a point
# has no measurement of, and how a cell of several jobs reads (docs/sweep.md).
# - A direction a point's rw= never asked for is "-" in the table and NaN in
#   the plot's data (it was 0, and the IOPS line dropped to 0 there).
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

[ "$fails" -eq 0 ]
