#!/bin/bash
# End to end: a job that fails while a sweep point runs is named on stderr
# with its point, and with --repeat with its run, as a point refused at its
# set-up is (docs/sweep.md, "A point whose job fails"): each point's line was
# the same "iobench: job 'x': err=...".
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=x --ioengine=null --size=1m --exec_prerun=false --output-format=terse)
"$bin" "${job[@]}" --sweep bs=4k,8k >/dev/null 2>"$tmp/s.err"
expect_eq "sweep: exit" "$?" 1
expect_eq "sweep: bs=4k named" "$(grep -c "^iobench: --sweep point bs=4k: job 'x': err=" "$tmp/s.err")" 1
expect_eq "sweep: bs=8k named" "$(grep -c "^iobench: --sweep point bs=8k: job 'x': err=" "$tmp/s.err")" 1
"$bin" "${job[@]}" --sweep bs=4k,8k --repeat=2 >/dev/null 2>"$tmp/r.err"
expect_eq "repeat: exit" "$?" 1
for p in 4k 8k; do
  for k in 1 2; do
    expect_eq "repeat: bs=$p run $k named" \
      "$(grep -c "^iobench: --sweep point bs=$p, repeat $k/2: job 'x': err=" "$tmp/r.err")" 1
  done
done
"$bin" "${job[@]}" --repeat=2 >/dev/null 2>"$tmp/p.err"
expect_eq "plain repeat: run 2 named" "$(grep -c "^iobench: repeat 2/2: job 'x': err=" "$tmp/p.err")" 1
"$bin" "${job[@]}" >/dev/null 2>"$tmp/one.err"
expect_eq "plain run: as before" "$(grep -c "^iobench: job 'x': err=" "$tmp/one.err")" 1
[ "$fails" -eq 0 ]
