#!/bin/bash
# With no job on the command line, a bad command-line value was refused as
# "no jobs defined: give a job file, or job options with --name=NAME", which
# named the wrong mistake: `iobench --bs s.fio` (the value forgotten, the job
# file taken as bs's value), `--bs=abc`, `--rw=bogus`. fio 3.33 says "failed
# parsing bs=s.fio". The value's error comes first now.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
printf '[a]\nioengine=null\nsize=64k\n' >s.fio
expect_run "--bs s.fio" 2 \
  "^command line: option 'bs': bad size 's.fio' \('s.fio' is a file, taken as the value of --bs, which needs one; to read it as a job file, give the option its value first: --bs=VALUE s.fio\)$" -- \
  "$bin" --bs s.fio
grep -q "no jobs defined" "$work/err" && fail "--bs s.fio still says no jobs defined"
expect_run "--bs=abc" 2 "^command line: option 'bs': bad size 'abc'" -- "$bin" --bs=abc
expect_run "--rw=bogus" 2 "^command line: option 'rw': bad rw mode 'bogus'" -- "$bin" --rw=bogus
# Still "no jobs defined" when every value is good.
expect_run "--bs=8k alone" 2 "^iobench: no jobs defined" -- "$bin" --bs=8k
[ "$fails" -eq 0 ]
