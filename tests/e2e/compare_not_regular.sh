#!/bin/bash
# End to end: --compare's BASE and NEW are regular files (docs/sweep.md).
# `--compare /dev/zero plain.json` read /dev/zero until memory ran out and
# then blamed the jobs ("out of memory: ... numjobs clones ..."); a FIFO
# blocked at open for ever. Both are refused at once, exit 2, naming the
# file. A job file given by a pipe beside --compare is read as a job file
# (the look for a NEW results file read the pipe up, and the job parser
# found it empty).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
work=$tmp
job=(--name=j --ioengine=null --size=1m)
"$bin" "${job[@]}" --output-format=json --output=plain.json 2>err || fail "plain run: $(cat err)"
mkfifo fifo
# ulimit -v bounds the old code's reading of /dev/zero (it took the memory).
# A sanitizer runtime reserves terabytes of address space at start, so
# there the cap is left off (the refusal reads nothing either way).
cap="ulimit -v 2000000 &&"
grep -qaE '__asan_init|__tsan_init' "$bin" && cap=""
expect_run "BASE /dev/zero" 2 \
  "^iobench: /dev/zero: is a character device, not a results file \(JSON written with --output-format=json\)$" \
  -- bash -c "$cap '$bin' --compare /dev/zero plain.json"
expect_run "BASE /dev/zero, a run" 2 "^iobench: /dev/zero: is a character device, not a results file" \
  -- bash -c "$cap '$bin' --compare /dev/zero --name=j --ioengine=null --size=1m"
expect_run "NEW /dev/zero" 2 "/dev/zero.*(not a results file|not a job file)" \
  -- bash -c "$cap '$bin' --compare plain.json /dev/zero"
expect_run "BASE a FIFO" 2 \
  "^iobench: fifo: is a FIFO or pipe, not a results file \(JSON written with --output-format=json\); save the results to a file first$" \
  -- "$bin" --compare fifo plain.json
expect_run "NEW a FIFO named .json" 2 "^iobench: fifo.json: is a FIFO or pipe, not a results file" \
  -- bash -c "mkfifo fifo.json && '$bin' --compare plain.json fifo.json"
# A job file from a pipe is a job file.
expect_run "job file from a pipe" 0 "" \
  -- bash -c "'$bin' --compare plain.json <(printf '[j]\nioengine=null\nsize=1m\n')"
grep -q "^j " "$work/out" || fail "job file from a pipe: no row for j: $(head -c 400 "$work/out")"
[ "$fails" -eq 0 ]
