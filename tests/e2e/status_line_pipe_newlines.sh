#!/bin/bash
# ctest-labels: threads
# The status line into a pipe (--eta=always) is ended with "\n" before a
# report only when that report goes into the same stream. With
# --output=r.txt the interim reports go to r.txt, yet every line before one
# ended "\r\n" in the pipe; fio 3.33 writes '\r' alone there. Without
# --output the report starts a line of its own ("\r\n" before it), as
# fio's. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
# rate_iops: the job sleeps between I/Os instead of spinning a core.
job=(--name=a --ioengine=null --rw=read --bs=4k --size=1G --time_based --runtime=2200ms --rate_iops=5000)

"$bin" "${job[@]}" --eta=always --status-interval=1 --output=r.txt | cat >line.out || fail "exit $?"
grep -aq 'Jobs: ' line.out || fail "no status line: $(cat -v line.out)"
[ "$(tr -cd '\n' <line.out | wc -c)" -eq 0 ] || fail "newlines in the pipe: $(cat -v line.out)"
[ "$(grep -c 'groupid=' r.txt)" -ge 2 ] || fail "r.txt lacks the interim reports: $(cat r.txt)"
# The reports in the same pipe: each starts a line of its own.
"$bin" "${job[@]}" --eta=always --status-interval=1 | cat >both.out || fail "exit $?"
grep -aq 'Jobs: ' both.out || fail "no status line beside the reports: $(head -c 300 both.out | cat -v)"
grep -aq $'\r''a: (groupid' both.out && fail "a report starts after '\\r': $(cat -v both.out | head -5)"
[ "$(grep -ac '^a: (groupid=' both.out)" -ge 2 ] || fail "reports not on lines of their own: $(cat -v both.out)"
[ "$fails" -eq 0 ]
