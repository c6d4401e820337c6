#!/bin/bash
# ctest-labels: threads
# The stuck-job watchdog leaves a job alone while it sleeps on purpose
# (docs/safety.md): thinktime=3s with --stuck-timeout=1 past a 1 s runtime
# was given up on ("the device does not complete I/O ... 1 I/O in flight,
# inside a synchronous engine call", exit 1, the results lost); fio 3.33
# finishes the pause and reports. So must iobench: exit 0, one I/O issued,
# the pause taken whole. Also on an async engine, and a spinning thinktime.
# A long exec_prerun is no pause of the I/O either: see below.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
# An exec_prerun (and the pre_read after it) longer than runtime plus the
# timeout: the runtime counts from the job's start, after them (it counted
# from the phase's start, and such a job was given up on, its results lost).
# An exec_postrun as long: fio waits for it (it was given up on as "1 I/O in
# flight, inside a synchronous engine call").
printf '#!/bin/sh\nsleep 2.5\n' >slow && chmod +x slow

while read -r args; do
  # shellcheck disable=SC2086 # the options are words
  expect_run "$args" 0 "" -- "$bin" --name=t --size=1m --runtime=1 --time_based \
    --stuck-timeout=1 $args || continue
  grep -q "issued rwts" "$work/out" || fail "$args: no report"
  grep -q "does not complete I/O" "$work/err" && fail "$args: called stuck"
done <<'LIST'
--ioengine=null --thinktime=3s
--ioengine=libaio --filename=/dev/null --rw=write --iodepth=4 --thinktime=3s
--ioengine=psync --filename=/dev/null --rw=write --thinktime=3s --thinktime_spin=3s
--ioengine=psync --filename=pr --rw=read --exec_prerun=./slow
--ioengine=psync --filename=pr --rw=read --pre_read=1 --exec_prerun=./slow
--ioengine=null --exec_postrun=./slow
--ioengine=libaio --filename=/dev/null --rw=write --iodepth=4 --exec_postrun=./slow
LIST

# A prerun that ignores the stop is given up on, but it is no device's
# doing: the headline said "the device does not complete I/O" of a job
# that had issued nothing.
printf '#!/bin/sh\ntrap "" INT TERM\necho $$ >deaf.pid\nexec sleep 5\n' >deaf && chmod +x deaf
timeout --preserve-status -s INT 1 "$bin" --name=t --size=1m --ioengine=null --exec_prerun=./deaf \
  --stuck-timeout=1 --output-format=terse >deaf.out 2>deaf.err
expect_eq "deaf prerun: exit (the signal's)" "$?" 130
expect_eq "deaf prerun: stderr" "$(cat deaf.err)" \
  "iobench: a job does not finish: giving up; job 't' (ioengine=null): stuck before its I/O (its exec_prerun), none completed in the last 1 s, after the stop signal (the job's thread is left behind; its results are lost)"
[ -s deaf.pid ] && kill -KILL "$(cat deaf.pid)" 2>/dev/null
[ "$fails" -eq 0 ]
