#!/usr/bin/env bash
# A log file that is a FIFO with no reader: its open blocked for good (under
# the log writer's lock, restarted after a first Ctrl-C), so the run hung
# until a second signal; fio 3.33 hangs too. It now waits up to 5 s for a
# reader, then fails the job saying why; with a reader the log flows through.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

mkfifo fl_bw.1.log || { echo "skip: mkfifo failed"; exit 77; }
job=(--name=t --ioengine=null --rw=read --bs=4k --size=64m --time_based --runtime=1
  --write_bw_log=fl --output-format=terse)
timeout -s KILL 20 "$bin" "${job[@]}" >out 2>err
rc=$?
[ "$rc" -eq 137 ] && fail "no reader: the run hung (killed after 20 s)"
expect_eq "no reader: exit status (the job fails)" "$rc" 1
grep -qF "iobench: job 't': err=6 (write_bw_log=fl (<cmdline>): open log file fl_bw.1.log: it is a FIFO that no reader opened within 5 s (start the reader first))" err ||
  fail "no reader: want the FIFO named, got '$(cat err)'"

# A reader started just after the run (iobench ... & cat fifo) is waited
# for; the lines come through, and the run ends well.
(sleep 1 && cat fl_bw.1.log >lines) &
reader=$!
timeout -s KILL 20 "$bin" "${job[@]}" >out 2>err
expect_eq "with a reader: exit status" "$?" 0
wait "$reader"
[ -s lines ] || fail "with a reader: no log line came through the FIFO"
[ -s err ] && fail "with a reader: stderr '$(cat err)'"

[ "$fails" -eq 0 ] || exit 1
echo "log FIFO without a reader: ok"
