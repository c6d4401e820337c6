#!/bin/bash
# fio 3.33 writes latency_depth, latency_target, latency_percentile and
# latency_window (and the normal report's "latency :" line) only for a job
# that entered its I/O loop, where it sets the depth: create_only, a failed
# exec_prerun and verify_only with writes (a dry run, then the verify) leave
# them out, the job object ends at latency_ms. A verify_only read job and a
# job that ran keep them. iobench wrote them for every job.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
# The job object's keys between latency_ms and iobench's own object.
tail_keys() {
  python3 -c 'import json,sys
s = sys.stdin.read()
j = json.loads(s[s.find("{"):])["jobs"][0]
k = [x for x in j if x != "iobench"]
print(" ".join(k[k.index("latency_ms"):]))'
}
lat4="latency_ms latency_depth latency_target latency_percentile latency_window"

got=$("$bin" --name=t --ioengine=psync --rw=write --bs=4k --filename=x --size=64k \
  --create_only=1 --output-format=json 2>>err.txt | tail_keys)
expect_eq "create_only" "$got" "latency_ms"
got=$("$bin" --name=t --ioengine=null --size=64k --exec_prerun=false --output-format=json \
  2>>err.txt | tail_keys)
expect_eq "exec_prerun failed" "$got" "latency_ms"
got=$("$bin" --name=t --ioengine=null --size=64k --numjobs=2 --group_reporting \
  --create_only=1 --output-format=json 2>>err.txt | tail_keys)
expect_eq "create_only, group" "$got" "latency_ms"
got=$("$bin" --name=t --ioengine=null --size=64k --create_only=1 2>>err.txt |
  grep -c "latency   :")
expect_eq "create_only: no normal latency line" "$got" 0

"$bin" --name=t --ioengine=psync --rw=write --bs=4k --filename=v --size=64k --verify=crc32c \
  --output-format=json >/dev/null 2>>err.txt
got=$("$bin" --name=t --ioengine=psync --rw=write --bs=4k --filename=v --size=64k \
  --verify=crc32c --verify_only=1 --output-format=json 2>>err.txt | tail_keys)
expect_eq "verify_only write" "$got" "latency_ms"
got=$("$bin" --name=t --ioengine=psync --rw=read --bs=4k --filename=v --size=64k \
  --verify=crc32c --verify_only=1 --output-format=json 2>>err.txt | tail_keys)
expect_eq "verify_only read" "$got" "$lat4"
got=$("$bin" --name=t --ioengine=null --size=64k --iodepth=4 --output-format=json 2>>err.txt |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["latency_depth"])')
expect_eq "a job that ran: its depth" "$got" 4

if fio_side; then  # the same jobs through fio, when it is installed
  got=$(fio --name=t --ioengine=psync --rw=write --bs=4k --filename=y --size=64k \
    --create_only=1 --output-format=json 2>/dev/null | tail_keys)
  expect_eq "fio: create_only" "$got" "latency_ms"
  got=$(fio --name=t --ioengine=null --size=64k --exec_prerun=false --output-format=json \
    2>/dev/null | tail_keys)
  expect_eq "fio: exec_prerun failed" "$got" "latency_ms"
fi
grep -v -e "prerun" err.txt >err2.txt
[ -s err2.txt ] && fail "stderr: $(cat err2.txt)"
[ "$fails" -eq 0 ]
