#!/bin/bash
# End to end: --plot=X.svg writes X.svg and its gnuplot script X.gp after
# the run; naming with either the --output report, a job file of the run,
# the --compare base or each other is refused before anything runs (exit 2,
# naming --plot and the file), as --output is (docs/sweep.md). They were
# overwritten: the JSON report replaced by the script, the job file too.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=1m)
printf '[j]\nioengine=null\nsize=1m\n' >mj.fio
"$bin" "${job[@]}" --output-format=json --output=base.json 2>err || fail "base run: $(cat err)"
cp base.json base.keep
# refused NAME STDERR ARGS...: exit 2, stderr holds STDERR (a fixed string),
# nothing written to stdout.
refused() {
  local name=$1 want=$2
  shift 2
  "$bin" "$@" >out 2>err
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -qF -- "$want" err || [ -s out ]; then
    fail "$name: exit $rc, stderr '$(cat err)', stdout '$(head -c 200 out)'"
  else
    echo "ok   $name"
  fi
}
echo '{"keep": 1}' >q.gp
refused "script is --output" \
  "--plot=q.svg names q.gp, the report (--output=q.gp): its gnuplot script would overwrite it; write the plot to another file" \
  "${job[@]}" --sweep iodepth=1,2 --plot=q.svg --output=q.gp --output-format=json
expect_eq "q.gp kept" "$(cat q.gp)" '{"keep": 1}'
cp mj.fio q3.gp
refused "script is a job file" \
  "--plot=q3.svg names q3.gp, a job file this run reads: its gnuplot script would overwrite it" \
  q3.gp --sweep iodepth=1,2 --plot=q3.svg --output-format=table
cmp -s mj.fio q3.gp || fail "the job file q3.gp was changed"
cp base.json q5.svg
refused "image is the --compare base" \
  "--plot=q5.svg names q5.svg, the --compare base results: the plot would overwrite it" \
  --compare q5.svg "${job[@]}" --sweep iodepth=1,2 --plot=q5.svg
cmp -s base.json q5.svg || fail "the --compare base q5.svg was changed"
ln -s base.json q7.gp
refused "script is the --compare base through a link, another spelling" \
  "--plot=q7.svg names ./base.json, the --compare base results: its gnuplot script" \
  --compare ./base.json "${job[@]}" --sweep iodepth=1,2 --plot=q7.svg
rm -f q7.gp
refused "image is --output" \
  "--plot=q6.svg names q6.svg, the report (--output=q6.svg): the plot would overwrite it" \
  "${job[@]}" --sweep iodepth=1,2 --plot=q6.svg --output=q6.svg
echo keep >q8.gp
ln -s q8.gp q8.svg
refused "image and script are one file" \
  "--plot=q8.svg names q8.gp, the plot (--plot=q8.svg): its gnuplot script would overwrite it" \
  "${job[@]}" --sweep iodepth=1,2 --plot=q8.svg
expect_eq "q8.gp kept" "$(cat q8.gp)" keep
cmp -s base.json base.keep || fail "base.json was changed"
for f in q.svg q3.svg q6.svg q6.gp q5.gp q7.svg; do
  [ -e "$f" ] && fail "$f made by a refused run"
done
# A name that is no image name is refused as such (not as its own script).
refused "not an image name" "--plot=q9.gp: the file name must end in .svg or .png" \
  "${job[@]}" --sweep iodepth=1,2 --plot=q9.gp
# A data file a job writes is a file of the run too, as for --output.
refused "script is a job's data file" \
  "--plot=d.svg names d.gp, a file job 'w' writes (filename=d.gp at <cmdline>): its gnuplot script" \
  --name=w --rw=write --size=64k --filename=d.gp --sweep bs=4k,8k --plot=d.svg
# Files of other names still get the plot (gnuplot or not: without it the
# script is written and the run says so).
"$bin" "${job[@]}" --sweep iodepth=1,2 --output-format=json --output=sweep.json 2>err ||
  fail "sweep run: $(cat err)"
"$bin" "${job[@]}" --sweep iodepth=1,2 --plot=ok.svg --compare sweep.json --output=ok.json \
  --output-format=json 2>err
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "a plot of its own: exit $rc: $(cat err)"
grep -q "iobench sweep plot" ok.gp || fail "a plot of its own: no ok.gp"
grep -q '"jobs"' ok.json || fail "a plot of its own: no report"
[ "$fails" -eq 0 ]
