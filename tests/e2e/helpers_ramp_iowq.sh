#!/usr/bin/env bash
# ctest-cost: 5
# ctest-labels: threads
# The helpers line is the helpers' CPU over the job's measured period. Their
# CPU during ramp_time was counted too and divided by the measured runtime:
# io_uring iodepth=8 ramp_time=2 runtime=500ms read io-wq sys 226% with
# peak_threads 1 (and cpu/IO 8.07 us for ~2.7). Now each worker samples its
# helpers when the ramp ends and that part is taken out. The bound comes
# from the accounting, not from timing: one thread cannot use more than
# 100% of the period, so io-wq usr+sys <= 100% x peak_threads (+1 for
# rounding). iodepth=1 force_async=1 keeps one io-wq worker busy through
# the ramp (old code: ~150% with 1 thread). $1: iobench binary, $2: source tree.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
truncate -s 16m f || exit 1
"$bin" --name=r --filename=f --size=16m --rw=randread --bs=4k --ioengine=io_uring --iodepth=1 \
  --force_async=1 --ramp_time=2 --runtime=250ms --time_based --output-format=json \
  >out.json 2>err.txt || { fail "run: $(head -c 300 err.txt)"; exit 1; }
got=$(python3 -c '
import json, sys
j = json.load(open("out.json"))["jobs"][0]
h = j["iobench"]["helpers"]
iowq = h["iowq_usr_cpu"] + h["iowq_sys_cpu"]
print("within" if iowq <= 100 * h["peak_threads"] + 1 else
      "over: io-wq %.1f%% with %d threads" % (iowq, h["peak_threads"]))')
expect_eq "io-wq CPU after a ramp <= 100% per thread" "$got" within
[ "$fails" -eq 0 ]
