#!/bin/bash
# ctest-labels: threads
# End to end: --output naming a FIFO with --status-interval. The report
# file was opened for each report and closed after it: the reader saw EOF
# after the first interim report and left, and the next open blocked for
# ever (SIGTERM was taken as a stop request and it went on blocking). The
# file is opened once and kept open for the run, as fio 3.33 keeps it: the
# reader gets the 2 interim reports and the final one, and the run ends.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
mkfifo ff
cat ff >got &
reader=$!
timeout -k 5 20 "$bin" --name=s --ioengine=null --rw=read --bs=4k --size=1G --time_based \
  --runtime=2200ms --status-interval=1 --output-format=json --output=ff 2>err
rc=$?
expect_eq "exit code (124/137: it hung)" "$rc" 0
# The reader ends at the writer's close; one that is left (the old code
# never opened the FIFO again) is ended here.
for _ in $(seq 50); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
kill "$reader" 2>/dev/null && fail "the reader was still waiting after the run"
wait "$reader" 2>/dev/null
expect_eq "stderr" "$(head -c 400 err)" ""
n=$(python3 -c '
import json, sys
lines = [l for l in open("got").read().split("\n") if l]
for l in lines:
    d = json.loads(l)
    assert d["jobs"][0]["jobname"] == "s", d["jobs"][0]["jobname"]
print(len(lines))
' 2>&1) || fail "the reader got lines that are not JSON documents: $n"
expect_eq "JSON documents the reader got (2 interim, the final)" "$n" 3
[ "$fails" -eq 0 ]
