#!/bin/bash
# ctest-labels: threads
# Issue 8: the live status line of the real binary. Under a pseudo-terminal
# (script(1)) it is drawn and redrawn in place with '\r'; into a pipe it is
# never written. $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
command -v script >/dev/null || { echo "skip: script(1) not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# thinktime paces the job without a rate limit (which the line would show).
cmd="$bin --name=t --ioengine=null --rw=randread --bs=4k --size=1G --thinktime=1000 --time_based --runtime=4"
script -qfec "$cmd" /dev/null >tty.out </dev/null || fail "under script: exit $?"
grep -aq 'Jobs: 1 (f=1): \[r(1)\]' tty.out || fail "no status line: $(head -c 600 tty.out | cat -v)"
redraws=$(grep -ao 'Jobs: 1 (f=1)' tty.out | wc -l)
[ "$redraws" -ge 2 ] || fail "want >= 2 draws in 4 s, got $redraws"
# A redraw: the next line starts after a bare '\r' on the same terminal line.
grep -aqP 'Jobs: [^\n]*\r(?!\n)[^\n]*Jobs: ' tty.out || fail "no in-place redraw: $(cat -v tty.out | head -5)"
$cmd --runtime=1 | cat >pipe.out || fail "piped: exit $?"
grep -q 'Jobs:' pipe.out && fail "status line written into a pipe"
grep -q 'groupid=0' pipe.out || fail "no report in the pipe"
# fio's letter for a job in its ramp is '/' ('p' is pre-reading); the first
# line comes after 1 s, inside the 2 s ramp. As fio's, a ramping job counts
# as running but adds no files (f=0) and no rate limits. (A runtime shorter
# than the ramp would end the job within it, as fio does.)
$bin --name=r --ioengine=null --rw=randread --bs=4k --size=1G --thinktime=1000 --ramp_time=2 \
  --time_based --runtime=2 --eta=always --eta-newline=1 >ramp.out || fail "ramp: exit $?"
grep -aq 'Jobs: 1 (f=0): \[/(1)\]' ramp.out || fail "no ramp letter: $(grep -a Jobs ramp.out | head -3 | cat -v)"
# The ETA counts down from the job's own start (it once stayed at the planned
# 4 s while the job ran): lines are drawn on a 1 s grid from the first, so
# each later line of the running job shows a smaller ETA than the first.
etas=$(tr '\r' '\n' <ramp.out | grep -a 'Jobs: 1 (f=[01]): \[[/r](1)\]' | grep -ao 'eta 00m:[0-9][0-9]s' |
  cut -c9-10 | sed 's/^0//')
[ "$(echo "$etas" | wc -l)" -ge 2 ] || fail "want >= 2 lines in 4 s: $(cat -v ramp.out | head -c 600)"
echo "$etas" | sort -n -r -c 2>/dev/null || fail "ETA went up: $(echo $etas)"
[ "$(echo "$etas" | head -1)" -gt "$(echo "$etas" | tail -1)" ] || fail "ETA never went down: $(echo $etas)"
echo ok
