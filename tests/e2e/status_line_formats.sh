#!/bin/bash
# ctest-labels: threads
# The status line never goes into a JSON or terse report on stdout (fio's
# rule in calc_thread_status): `--output-format=json --eta=always > out.json`
# once wrote "Jobs: 1 (f=1)...\r" before the document, and under a terminal
# whose output is captured (script, ssh -t) the line landed in the capture.
# With --output=FILE the line still goes to stdout, as fio's does; beside a
# normal report it is drawn as before. No timing is asserted: a 0.6 s job
# gets its first line as soon as it starts. $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
job=(--name=t --ioengine=null --rw=randread --bs=4k --size=1G --thinktime=1000 --time_based
  --runtime=600ms)

for f in json json+; do
  "$bin" "${job[@]}" --output-format=$f --eta=always >out.json || fail "$f: exit $?"
  grep -aq 'Jobs:' out.json && fail "$f: status line in the report: $(head -c 200 out.json | cat -v)"
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' out.json ||
    fail "$f: stdout is not one JSON document: $(head -c 200 out.json | cat -v)"
done
"$bin" "${job[@]}" --output-format=terse --eta=always >out.terse || fail "terse: exit $?"
grep -aq 'Jobs:' out.terse && fail "terse: status line in the report: $(cat -v out.terse)"
grep -aqv '^3;' out.terse && fail "terse: a line that is not a terse record: $(cat -v out.terse)"

# --output=FILE: the report is elsewhere; the line goes to stdout (fio).
"$bin" "${job[@]}" --output-format=json --output=f.json --eta=always >line.out || fail "exit $?"
# 'Jobs: ' only: on a loaded machine the one line a 0.6 s job gets may be
# drawn before its worker runs (Jobs: 0), which is not what is tested here.
grep -aq 'Jobs: ' line.out || fail "no status line beside --output: $(cat -v line.out)"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' f.json || fail "f.json is not JSON"
# Beside a normal report on stdout it is drawn (fio: json,normal too).
"$bin" "${job[@]}" --output-format=json,normal --eta=always >both.out || fail "exit $?"
grep -aq 'Jobs: ' both.out || fail "no status line beside normal: $(head -c 300 both.out)"

# A terminal (--eta=auto draws there) whose output is captured.
if command -v script >/dev/null; then
  script -qfec "$bin ${job[*]} --output-format=json" /dev/null >tty.out </dev/null ||
    fail "under script: exit $?"
  grep -aq 'Jobs:' tty.out && fail "status line in a captured JSON report: $(head -c 200 tty.out | cat -v)"
  tr -d '\r' <tty.out >tty.json
  python3 -c 'import json, sys; json.load(open(sys.argv[1]))' tty.json ||
    fail "captured stdout is not one JSON document: $(head -c 200 tty.out | cat -v)"
fi
echo ok
