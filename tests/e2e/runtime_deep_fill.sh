#!/bin/bash
# runtime ends a job while it is still filling a deep queue. libaio on a
# tmpfs file does each read inside io_submit, so one fill of iodepth=4096
# takes several ms; with runtime=1ms the job must stop within the fill, as
# fio does (it checks the clock between submits: about 500 reads here),
# not after the whole queue went in (4096 reads, 10 ms). io_uring does the
# read inline in io_uring_enter the same way. A slower machine only stops
# the job sooner in I/Os: the bound holds whatever the load.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
truncate -s 64m f
for engine in libaio io_uring; do
  "$bin" --name=t --filename=f --size=64m --rw=randread --bs=4k --ioengine=$engine \
    --iodepth=4096 --runtime=1ms --time_based --output-format=json >out.json 2>err.txt
  rc=$?
  if [ "$rc" -ne 0 ] && grep -qiE "aio-max-nr|io_setup|io_uring_setup|not supported|Unsupported" err.txt; then
    echo "skip $engine: $(head -1 err.txt)"
    continue
  fi
  expect_eq "$engine exit" "$rc" 0
  expect_eq "$engine stderr" "$(cat err.txt)" ""
  ios=$(python3 -c 'import json; print(json.load(open("out.json"))["jobs"][0]["read"]["total_ios"])')
  [ "${ios:-4096}" -lt 4096 ] || fail "$engine: $ios reads with runtime=1ms: the whole queue (4096) went in before the clock was read"
  [ "${ios:-0}" -gt 0 ] || fail "$engine: no read done"
done
[ "$fails" -eq 0 ]
