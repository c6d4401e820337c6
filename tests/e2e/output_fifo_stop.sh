#!/bin/bash
# ctest-labels: threads
# End to end: --output naming a FIFO that no reader opens. The report's
# open blocked, and the signal handlers restart it (SA_RESTART): one SIGINT
# could not end the wait (timeout -k 8 -s INT 2 ended in SIGKILL at 10 s;
# a second SIGINT, a second later, ended it). The first SIGINT or SIGTERM
# now ends the wait with a message, exit 130 / 143 as for any stop signal.
# A reader that comes late still gets the report.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
mkfifo ff
job=(--name=r --ioengine=null --rw=read --bs=4k --size=1G --time_based --runtime=300ms
  --output-format=json --output=ff)
# stop_after SIG: runs the job, sends SIG at 2 s, and waits up to 20 s for
# the exit (an ASan build once had not exited 8 s after writing its
# message, under a loaded CI-like run: timeout's SIGKILL came first). If it
# is still there, its state and threads' kernel stacks go to the log before
# the SIGKILL. Sets rc.
stop_after() {
  "$bin" "${job[@]}" 2>err &
  local pid=$! i
  sleep 2
  kill -s "$1" "$pid"
  for ((i = 0; i < 200; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "still running 20 s after SIG$1: $(grep -E '^(State|Threads)' /proc/$pid/status | tr '\n' ' ')"
    for t in /proc/$pid/task/*; do
      echo "thread ${t##*/} $(cat "$t/comm" 2>/dev/null) wchan=$(cat "$t/wchan" 2>/dev/null)"
      cat "$t/stack" 2>/dev/null | head -8
    done
    kill -9 "$pid"
  fi
  wait "$pid"
  rc=$?
}
for sig in INT TERM; do
  stop_after "$sig"
  want=$((128 + $(kill -l "$sig")))
  expect_eq "SIG$sig while waiting for the FIFO's reader: exit code (137: it hung)" "$rc" "$want"
  expect_eq "SIG$sig: stderr" "$(cat err)" \
    "iobench: cannot write --output=ff: it is a FIFO that no reader opened, and SIG$sig ended the wait for one (the report is lost)"
done
# A reader that opens the FIFO after the run has ended gets the report.
"$bin" "${job[@]}" 2>err &
pid=$!
sleep 1.5
timeout 20 cat ff >got
wait "$pid"
expect_eq "late reader: exit code" "$?" 0
expect_eq "late reader: stderr" "$(cat err)" ""
python3 -c 'import json; json.load(open("got"))' || fail "late reader: no JSON report"
[ "$fails" -eq 0 ]
