#!/usr/bin/env bash
# ctest-cost: 5
# ctest-labels: threads
# A SQPOLL thread spins from its ring's creation (in the job's set-up) and
# for sq_thread_idle after the last I/O. Its CPU was counted from the
# sampler's start to a sample after the job's end, both outside the measured
# period, and divided by that period: a 9 ms job read sqpoll=135%, a 2.9 ms
# one 112%, and with startdelay=300ms the whole delay's spinning. Now the
# job reads its helpers when its period begins (after its start time) and
# again before its end time, from the threads' CPU clocks, which are exact
# at the call: one thread cannot use more CPU than the wall time between two
# such readings, so sqpoll usr+sys <= 100% (+1 for rounding), however loaded
# the machine. The startdelay run also checks "other": the coordinator's
# CPU through the delay went to the 3 ms job (other=52% after a 1 s delay);
# now spread over the sampler's span, its share is a fraction of a percent.
# $1: iobench binary, $2: source tree. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
shm=$(mktemp -d /dev/shm/iobench-sqps.XXXXXX) || exit 1
trap 'cd /; rm -rf "$tmp" "$shm"' EXIT  # setup.bash's trap removed $tmp
[ "$(stat -f -c %T "$shm")" = tmpfs ] || { echo "skip: /dev/shm is not tmpfs"; exit 77; }
truncate -s 256k "$shm/f" || exit 1
job=(--name=c --ioengine=io_uring --sqthread_poll=1 --iodepth=4 --rw=randread --bs=4k
  --size=256k --filename="$shm/f" --output-format=json)
if ! "$bin" "${job[@]}" >probe.json 2>err.txt; then
  echo "skip: sqthread_poll=1 refused here: $(head -c 300 err.txt)"; exit 77
fi
check='
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
h = j["iobench"]["helpers"]
sq = h["sqpoll_usr_cpu"] + h["sqpoll_sys_cpu"]
other = h["other_usr_cpu"] + h["other_sys_cpu"]
bad = []
if sq > 101:
    bad.append("sqpoll=%.1f%% (%d us) of %d ms" % (sq, h["sqpoll_sys_us"], j["job_runtime"]))
if sys.argv[2] == "delay" and other > 10:
    bad.append("other=%.1f%% of %d ms after a startdelay" % (other, j["job_runtime"]))
print("; ".join(bad) if bad else "within")'
for run in 1 2 3 4 5 delay; do
  extra=()
  [ "$run" = delay ] && extra=(--startdelay=300ms)
  "$bin" "${job[@]}" "${extra[@]}" >out.json 2>err.txt ||
    { fail "run $run: $(head -c 300 err.txt)"; continue; }
  expect_eq "run $run: one SQPOLL thread <= 100% of the measured period" \
    "$(python3 -c "$check" out.json "$run")" within
done
[ "$fails" -eq 0 ]
