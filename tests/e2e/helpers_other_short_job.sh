#!/usr/bin/env bash
# ctest-cost: 5
# ctest-labels: threads
# "other" is the group's helper CPU no sample labelled (mostly the
# coordinator's), spread over the group's jobs by io_uring submissions. A
# group of a 4 ms io_uring job and a 6 s psync job gave the io_uring job all
# of the coordinator's 6 s: other=140% of its 4 ms. A job's share is now at
# most the part of "other" that accrued while it ran (spread evenly over the
# group's longest runtime): other <= the group's other rate, well under 5%
# here (old code: ~25% with a 3 s psync job). $1: iobench binary, $2: source tree.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
truncate -s 16m f || exit 1
"$bin" --bs=4k --rw=randread --name=short --ioengine=io_uring --iodepth=16 --force_async=1 \
  --size=8m --filename=f --name=long --ioengine=psync --filename=f --size=16m --runtime=3 \
  --time_based --output-format=json >out.json 2>err.txt ||
  { fail "run: $(head -c 300 err.txt)"; exit 1; }
got=$(python3 -c '
import json
jobs = {j["jobname"]: j for j in json.load(open("out.json"))["jobs"]}
h = jobs["short"]["iobench"]["helpers"]
other = h["other_usr_cpu"] + h["other_sys_cpu"]
print("low" if other < 5 else "high: other=%.1f%% of %d ms" % (other, jobs["short"]["job_runtime"]))')
expect_eq "short io_uring job's share of the group's other" "$got" low
[ "$fails" -eq 0 ]
