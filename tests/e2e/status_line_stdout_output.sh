#!/bin/bash
# ctest-labels: threads
# An --output that names stdout itself is the report on stdout: the status
# line is not drawn beside JSON there. `--output=/proc/self/fd/1 > r.json`
# wrote `"timestamp_ms":Jobs: 1 (f=1): [R(1)][46.2%]...` into r.json (any
# --output counted as "the report is elsewhere"), and `--output=/dev/stdout |
# cat` put `Jobs:` lines between the JSON lines. A normal report there still
# gets the line, ended before each report. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
[ -e /proc/self/fd/1 ] || { echo "skip: no /proc/self/fd"; exit 77; }
# rate_iops: the job sleeps between I/Os instead of spinning for 2.2 s in
# each of the seven runs (14 s of CPU per CI stage).
job=(--name=s --ioengine=null --rw=read --bs=4k --size=1G --time_based --runtime=2200ms --rate_iops=5000)
lines() { python3 -c '
import json, sys
for n, l in enumerate(open(sys.argv[1], "rb").read().decode().splitlines()):
    json.loads(l)' "$1"; }

# stdout a file, --output naming it through /proc/self/fd/1.
"$bin" "${job[@]}" --eta=always --status-interval=1 --output-format=json \
  --output=/proc/self/fd/1 >r.json || fail "exit $?"
grep -aq 'Jobs:' r.json && fail "status line in r.json: $(grep -a -m1 -o '.\{40\}Jobs:.\{20\}' r.json | cat -v)"
lines r.json || fail "r.json is not JSON Lines: $(head -c 300 r.json | cat -v)"
# stdout a pipe, --output=/dev/stdout.
"$bin" "${job[@]}" --eta=always --status-interval=1 --output-format=json+ \
  --output=/dev/stdout | cat >p.json || fail "pipe: exit $?"
grep -aq 'Jobs:' p.json && fail "status line in the piped JSON: $(head -c 300 p.json | cat -v)"
lines p.json || fail "piped JSON is not JSON Lines: $(head -c 300 p.json | cat -v)"
# terse, the same.
"$bin" "${job[@]}" --eta=always --output-format=terse --output=/dev/stdout >r.terse || fail "terse: exit $?"
grep -aq 'Jobs:' r.terse && fail "status line in the terse report: $(cat -v r.terse)"
# A terminal (--eta=auto) whose output is captured.
if command -v script >/dev/null; then
  script -qfec "$bin ${job[*]} --status-interval=1 --output-format=json --output=/dev/stdout" \
    /dev/null >tty.out </dev/null || fail "under script: exit $?"
  grep -aq 'Jobs:' tty.out && fail "status line in a captured JSON report: $(head -c 300 tty.out | cat -v)"
fi
# A normal report there: the line is drawn and each report starts a line
# of its own (the line before it ends with "\r\n").
"$bin" "${job[@]}" --eta=always --status-interval=1 --output=/dev/stdout >n.out || fail "normal: exit $?"
grep -aq 'Jobs: ' n.out || fail "no status line beside a normal report: $(head -c 300 n.out | cat -v)"
grep -aq $'\r''s: (groupid' n.out && fail "a report starts after a '\\r': $(cat -v n.out | head -5)"
# Another file is elsewhere: the line goes to stdout, as fio's does.
"$bin" "${job[@]}" --eta=always --output-format=json --output=f.json >line.out || fail "exit $?"
grep -aq 'Jobs: ' line.out || fail "no status line beside --output=f.json: $(cat -v line.out)"
# With --status-interval too: fio 3.33 skips the draw after each JSON
# report (a side effect of its writer, docs/status.md); iobench keeps its
# schedule, one line a second.
"$bin" "${job[@]}" --eta=always --status-interval=1 --output-format=json --output=g.json \
  >si.out || fail "exit $?"
[ "$(tr '\r' '\n' <si.out | grep -ac 'Jobs: ')" -ge 2 ] ||
  fail "status lines beside --output=g.json --status-interval=1: $(cat -v si.out)"
lines g.json || fail "g.json is not JSON Lines"
[ "$fails" -eq 0 ]
