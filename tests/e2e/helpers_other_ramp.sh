#!/usr/bin/env bash
# The helpers line's "other" is the process's CPU that no thread sample
# labelled, over the job's measured time. The worker's own CPU before its
# measured period (a ramp, a latency_target search) is neither: it went to
# "other", 181% for libaio on tmpfs with ramp_time=1 runtime=500ms (the
# worker busy through the ramp, divided by 500 ms), other=866% with a 1 s
# latency_target search over a 100 ms final run. Now other holds the
# coordinator's and exited threads' CPU only: under 1% here. The bound, 40%,
# is far from both whatever the load: a worker that got a fifth of a CPU
# through its ramp still put 40% there. $1: iobench binary, $2: source tree.
source "$2/tests/e2e/setup.bash"
truncate -s 16m f || exit 1
other() {
  "$bin" --name=j --filename=f --size=16m --rw=randread --ioengine=libaio --iodepth=8 \
    --time_based --output-format=json "$@" 2>"$tmp/err" | python3 -c '
import json, sys
h = json.load(sys.stdin)["jobs"][0]["iobench"]["helpers"]
print("low" if h["other_usr_cpu"] + h["other_sys_cpu"] < 40 else
      "high %.1f" % (h["other_usr_cpu"] + h["other_sys_cpu"]))'
}
expect_eq "other after a ramp" "$(other --ramp_time=1 --runtime=500ms)" low
expect_eq "other after a latency_target search" \
  "$(other --runtime=3 --latency_target=20us --latency_window=100ms --latency_percentile=95)" low
[ "$fails" -eq 0 ]
