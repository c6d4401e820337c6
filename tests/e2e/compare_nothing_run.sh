#!/bin/bash
# End to end: --compare BASE.json NEW.json runs nothing, so the options that
# act on a run (--sweep, --sweep-cmd, --repeat, --plot) and the table
# layout options (--table-rows, --table-cols: the delta tables do not read
# them) are refused, exit 2, naming the option (docs/sweep.md). They were
# ignored, exit 0, as a typo would be.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
for f in a b; do
  "$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json --output=$f.json 2>"$tmp/e" ||
    fail "$f.json: $(cat "$tmp/e")"
done
# refused WANT ARGS...: --compare a.json b.json ARGS exits 2, prints nothing
# on stdout, writes no plot and says WANT (a fixed string) on stderr.
refused() {
  local want=$1
  shift
  "$bin" --compare a.json b.json "$@" >out 2>err
  local rc=$?
  if [ $rc -ne 2 ] || [ -s out ] || [ -e c.svg ] || [ -e c.gp ] || ! grep -qF -- "$want" err; then
    fail "$* -> exit $rc, stderr: $(cat err), stdout: $(head -c 200 out)"
  else
    echo "ok   $want"
  fi
}
nothing="--compare a.json b.json runs nothing"
refused "--plot=c.svg: $nothing; a plot is of a sweep run now" --plot=c.svg
refused "--sweep iodepth=1,2: $nothing to sweep" --sweep iodepth=1,2
refused "--repeat=3: $nothing to repeat" --repeat=3
refused "--sweep-cmd 'true': $nothing" --sweep-cmd=true
refused "--table-cols=zz: nothing reads it with --compare a.json b.json" --table-cols=zz
# A swept key of the files too: the delta tables are laid out by point.
refused "--table-rows=iodepth: nothing reads it with --compare a.json b.json" --table-rows=iodepth
refused "--table-cols=iodepth: nothing reads it" --table-cols=iodepth --output-format=table
# What the comparison reads is still taken.
"$bin" --compare a.json b.json --table-metric=bw --table-style=csv >out 2>err
expect_eq "metric and style: exit" "$?" 0
expect_eq "metric and style: stderr" "$(cat err)" ""
grep -q '^# read bandwidth' out || fail "no csv bandwidth table: $(head -3 out)"
[ "$fails" -eq 0 ]
