#!/bin/bash
# file_service_type=roundrobin across loops: the next loop goes on from the
# file after the last one used, as fio's clear_io_state keeps next_file.
# Files of 16k, 64k and 62k read in 8k over loops=2: loop 1 ends on b:56,
# and loop 2 starts on c (iobench started it on a). The order is each
# tool's write_iolog (fio's and iobench's agree I/O for I/O).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

head -c 16384 /dev/zero >a
head -c 65536 /dev/zero >b
head -c 63488 /dev/zero >c
want="a:0 b:0 c:0 a:8 b:8 c:8 b:16 c:16 b:24 c:24 b:32 c:32 b:40 c:40 b:48 c:48 b:56"
want="$want c:0 a:0 b:0 c:8 a:8 b:8 c:16 b:16 c:24 b:24 c:32 b:32 c:40 b:40 c:48 b:48 b:56"
for t in $(tools); do
  rm -f "log.$t"
  "$(cmd "$t")" --name=x --ioengine=psync --bs=8k --rw=read --loops=2 --filename=a:b:c \
    --write_iolog="log.$t" --output-format=terse >/dev/null 2>"err.$t" ||
    { fail "$t: exit $?: $(head -c 300 "err.$t")"; continue; }
  got=$(awk '$3=="read"{printf "%s%s:%d", sep, $2, $4/1024; sep=" "}' "log.$t")
  expect_eq "$t roundrobin loops=2 order" "$got" "$want"
done
[ "$fails" -eq 0 ] && echo "ok: roundrobin goes on across loops"
[ "$fails" -eq 0 ]
