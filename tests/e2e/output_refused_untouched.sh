#!/bin/bash
# A run refused at its set-up (exit 2: --readonly with a writing job, a
# missing device) has no report: an existing --output file keeps what it
# held, and no new one is made. It was truncated to nothing (or left an
# empty file) after the refusal. A sweep whose later point is refused
# still writes the points that ran. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
echo keep >keep.txt
expect_run "--readonly with a writing job" 2 "^iobench: --readonly: job 't' writes" -- \
  "$bin" --readonly --name=t --ioengine=null --size=64k --rw=write --output=keep.txt
expect_eq "keep.txt after --readonly" "$(cat keep.txt)" "keep"
missing=/dev/iobench-e2e-missing-$$
expect_run "a missing device" 2 "device $missing does not exist" -- \
  "$bin" --name=t --filename=$missing --size=4k --output=keep.txt
expect_eq "keep.txt after a missing device" "$(cat keep.txt)" "keep"
expect_run "a missing device, new --output" 2 "device $missing does not exist" -- \
  "$bin" --name=t --filename=$missing --size=4k --output=new.txt
[ -e new.txt ] && fail "new.txt was made by a refused run"
[ -e $missing ] && fail "$missing was made"
# A sweep whose later point is refused at its set-up still writes the
# points that ran: tests/e2e/sweep_point_refused.sh.
[ "$fails" -eq 0 ]
