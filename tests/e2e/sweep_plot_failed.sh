#!/bin/bash
# End to end: --plot leaves out a point whose job failed (the table's "0 !")
# and one cut short by a signal ("*"): their figures are no measurements,
# and "false" 0 in the plot's data drew a failed point as a collapse of the
# throughput. They are NaN in the script's data (a gap in the line), named
# in a comment and the chart's title (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
# The failed point: a prerun that fails ends the job in an error.
"$bin" "${job[@]}" --sweep exec_prerun=true,false --plot=a.svg --output-format=table >out 2>err
rc=$?
[ $rc -eq 1 ] || fail "exit $rc, want 1 (a job failed): $(cat err)"
[ -f a.gp ] || fail "no a.gp: $(cat err)"
# The data block: one line per x value, the metric after it.
expect_eq "failed point's data" "$(grep '^"false" ' a.gp | head -1)" '"false" NaN'
grep -q '^"true" [0-9]' a.gp || fail "the whole point lost its value: $(sed -n '/^\$metric/,/^EOD/p' a.gp)"
grep -qF "# not plotted (NaN): exec_prerun=false: failed" a.gp || fail "no comment: $(head -5 a.gp)"
grep -qF "(1 not plotted: exec_prerun=false: failed)" a.gp || fail "no note in the title"
# Every point failed: nothing to plot, said so (the report is still written).
"$bin" "${job[@]}" --sweep exec_prerun=false,/bin/false --plot=b.svg --output-format=table >out 2>err
expect_eq "all failed: exit" "$?" 1
grep -qF -- "--plot: no point is plotted: every point failed or was interrupted" err ||
  fail "all failed: $(cat err)"
grep -q 'exec_prerun' out || fail "all failed: no table"
# The cut point: Ctrl-C (SIGINT) in the middle of the second point, a long
# one. The hook clears the mark the job's prerun command leaves as it
# starts, so the signal goes once the second point's job is running (no
# sleep decides which point it cuts).
"$bin" --name=j --ioengine=null --size=1g --time_based --sweep runtime=1s,300s \
  --sweep-cmd='rm -f running; touch point.{runtime}' --exec_prerun='touch running' \
  --plot=c.svg --output-format=json >out 2>err &
pid=$!
for _ in $(seq 1 600); do
  [ -e point.300s ] && [ -e running ] && break
  sleep 0.1
done
[ -e point.300s ] && [ -e running ] || fail "the second point did not start: $(cat err)"
kill -INT $pid
wait $pid
expect_eq "interrupted: exit" "$?" 130
expect_eq "cut point's data" "$(grep '^"300s" ' c.gp | head -1)" '"300s" NaN'
grep -q '^"1s" [0-9]' c.gp || fail "the whole point lost its value: $(grep '^"1s" ' c.gp)"
grep -qF "# not plotted (NaN): runtime=300s: interrupted" c.gp || fail "no comment: $(head -5 c.gp)"
[ "$fails" -eq 0 ]
