#!/bin/bash
# End to end: a job whose engine is not the one its [global] gave engine
# options under starts from its engine's defaults, as in fio 3.33
# (docs/jobfile.md). [global] io_uring cmdprio_percentage=50 with a libaio
# job issued 106 of 200 I/Os with a priority (fio: none), and [global]
# io_uring hipri=1 with a pvsync2 job was refused (fio runs it, flags 0).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
printf '[global]\nfilename=f1\nsize=1m\nbs=4k\nrw=randread\nnumber_ios=200\nioengine=io_uring\ncmdprio_percentage=50\ncmdprio_class=2\n[u]\n[l]\nioengine=libaio\n' >prio.fio
printf '[global]\nfilename=f1\nsize=1m\nnumber_ios=20\nioengine=io_uring\nhipri=1\nnowait=1\n[p]\nioengine=pvsync2\n' >poll.fio
# high PRIO.FIO-OUTPUT: "job:reads-with-priority" for each job.
high() {
  python3 -c '
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.find("{"):])
print(" ".join(j["jobname"] + ":" + str(j["iobench"]["high_prio_ios"]["read"]) for j in d["jobs"]))' "$1"
}
globals() {
  python3 -c '
import json, sys
t = open(sys.argv[1]).read()
print(json.loads(t[t.find("{"):]).get("global options"))' "$1"
}
if "$bin" prio.fio --output-format=json >prio.json 2>err.txt; then
  expect_eq "io_uring job keeps, libaio job drops [global]'s cmdprio" \
    "$(high prio.json | sed 's/u:[1-9][0-9]*/u:some/')" "u:some l:0"
  expect_eq "the dropped options stay in global options" "$(globals prio.json)" \
    "{'size': '1m', 'bs': '4k', 'rw': 'randread', 'number_ios': '200', 'ioengine': 'io_uring', 'filename': 'f1', 'cmdprio_percentage': '50', 'cmdprio_class': '2'}"
  if fio_side; then
    fio prio.fio --output-format=json >fio.json 2>/dev/null
    expect_eq "global options as fio's" "$(globals prio.json)" "$(globals fio.json)"
  fi
elif grep -q "io_uring\|libaio" err.txt; then
  echo "skip: io_uring or libaio not usable here: $(head -c 200 err.txt)"
  exit 77
else
  fail "prio.fio: $(head -c 300 err.txt)"
fi
"$bin" poll.fio --output-format=json >poll.json 2>err.txt
expect_eq "pvsync2 job runs without [global]'s io_uring hipri: exit" "$?" 0
[ -s err.txt ] && fail "pvsync2 job: $(head -c 300 err.txt)"
[ "$fails" -eq 0 ]
