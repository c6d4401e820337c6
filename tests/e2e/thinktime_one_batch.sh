#!/usr/bin/env bash
# thinktime with the null engine at iodepth > 1 (one batch at a time):
# fio 3.33 counts a batch's completions at its next I/O's busy queue call,
# so a pause due after the job's last I/O is not taken (unless the batch
# filled the queue, when it is reaped and counted at once). thinktime=300ms
# every 6 completed I/Os: the pauses are counted as the runtime in ms over
# 300, rounded. The I/Os take microseconds, so the pauses make the runtime;
# an oversleep of up to 150 ms in all still rounds right.
# $1: iobench binary, $2: source tree.
source "$2/tests/e2e/setup.bash"
pauses() {
  "$(cmd "$1")" --name=j --ioengine=null --size=1g --bs=4k --rw=read --thinktime=300ms \
    --thinktime_blocks=6 --output-format=json "${@:2}" 2>"$tmp/err" | python3 -c '
import json, sys
t = sys.stdin.read()
print(round(json.loads(t[t.find("{"):])["jobs"][0]["job_runtime"] / 300))'
}
# job (iodepth=4 unless given): pauses, as fio 3.33
cases=("--number_ios=6:0" "--number_ios=12:1" "--number_ios=13:2" "--number_ios=24:3"
  "--number_ios=6 --iodepth=2:0" "--size=24k:0" "--size=24k --loops=2:1"
  "--number_ios=12 --iodepth_batch=2:1" "--number_ios=24 --iodepth_batch=4:3"
  "--number_ios=12 --thinktime_blocks_type=issue:2" "--number_ios=6 --iodepth=1:1")
for t in $(tools); do
  for c in "${cases[@]}"; do
    # shellcheck disable=SC2086 # the job's options are words
    expect_eq "$t ${c%:*}" "$(pauses "$t" --iodepth=4 ${c%:*})" "${c##*:}"
  done
done
[ "$fails" -eq 0 ]
