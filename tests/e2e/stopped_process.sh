#!/bin/bash
# ctest-labels: threads
# End to end: a run stopped (Ctrl-Z, SIGSTOP) for longer than its runtime
# plus the watchdog's grace, then resumed (SIGCONT). The watchdog counted
# the stopped time as time without I/O: when its loop ran on resume before
# a worker's pending pread returned, it gave up on a "hung device", exit 1,
# every result lost (1 s in, stopped 42 s, default 30 s grace). Time the
# whole process did not run is not a hang: the report is complete, exit 0,
# as fio 3.33's.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
for round in 1 2 3; do
  "$bin" --name=r --filename=F --size=16m --rw=randread --bs=4k --numjobs=4 --runtime=1 \
    --time_based --stuck-timeout=1s --output-format=json >out 2>err &
  pid=$!
  sleep 0.5
  kill -STOP "$pid"
  sleep 3
  kill -CONT "$pid"
  wait "$pid"
  rc=$?
  expect_eq "round $round: exit code" "$rc" 0
  expect_eq "round $round: stderr" "$(head -c 600 err)" ""
  got=$(python3 -c '
import json
d = json.load(open("out"))
print(len(d["jobs"]), sum(j["read"]["total_ios"] > 0 for j in d["jobs"]))
' 2>&1)
  expect_eq "round $round: jobs in the report, jobs with I/O" "$got" "4 4"
done
[ "$fails" -eq 0 ]
