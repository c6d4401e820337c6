#!/bin/bash
# ctest-cost: 5
# ctest-labels: threads
# With sqthread_poll=1 the SQPOLL thread posts a read's CQE before it moves
# the SQ head past its SQE. At iodepth=1 the worker reaped the read, queued
# the next one into the still-full one-entry SQ, got kBusy with nothing in
# flight and failed the job: err=16 (read ...: Device or resource busy), 2
# runs in 5 of 2 s under load, 1 in 10 of 500 ms. fio 3.33 waits and retries
# (11 of 11 fine); so does the engine now (IORING_ENTER_SQ_WAIT). Two jobs
# run at once, six times, to load the CPUs: every run must end with rc 0
# and no error. It need not fail on the old code every time (a race).
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
truncate -s 16m f || exit 1
job=(--rw=randread --bs=4k --size=16m --ioengine=io_uring --sqthread_poll=1 --iodepth=1
  --time_based --runtime=300ms --filename=f)
if ! "$bin" --name=probe "${job[@]}" --runtime=50ms >/dev/null 2>err.txt &&
  grep -qiE "sqthread_poll|setup|memlock|disabled|not permitted" err.txt; then
  echo "skip: sqthread_poll=1 refused here: $(head -c 300 err.txt)"
  exit 77
fi
bad=0
for i in 1 2 3 4 5 6; do
  "$bin" --name=a "${job[@]}" >a.out 2>a.err &
  pid=$!
  "$bin" --name=b "${job[@]}" >b.out 2>b.err
  rc_b=$?
  wait "$pid"
  rc_a=$?
  for j in a b; do
    rc_var=rc_$j
    # The job's "err=" line is in the report (stdout); stderr has the error.
    if [ "${!rc_var}" -ne 0 ] || grep -q "err= *[1-9]" "$j.out" || [ -s "$j.err" ]; then
      bad=$((bad + 1))
      echo "run $i job $j: rc ${!rc_var}: $(head -c 300 "$j.err")"
    fi
  done
done
expect_eq "SQPOLL iodepth=1 runs that failed" "$bad" 0
[ "$fails" -eq 0 ]
