#!/bin/bash
# A performance log that cannot be created is refused naming where its
# option was set, as the other refusals do: `write_bw_log=nodir/p
# (file.fio:4): open log file ...`, `(<cmdline>)`, and for a bare flag the
# line of the flag. It used to say only `write_bw_log=nodir/p: open log file`.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
work=$tmp

printf '[global]\nioengine=null\nsize=16k\nwrite_bw_log=nodir/p\n[j]\n' >file.fio
expect_run "job file value" 2 \
  "^iobench: job 'j': write_bw_log=nodir/p \(file\.fio:4\): open log file nodir/p_bw\.1\.log: " \
  -- "$bin" --eta=never file.fio

# A bare flag: the prefix is the job name, the place the flag's line.
printf '[global]\nioengine=null\nsize=16k\n[c/d]\nwrite_lat_log\n' >bare.fio
expect_run "bare flag" 2 \
  "^iobench: job 'c/d': write_lat_log=c/d \(bare\.fio:5\): open log file c/d_slat\.1\.log: " \
  -- "$bin" --eta=never bare.fio

expect_run "command line" 2 \
  "^iobench: job 'j': write_iops_log=nodir/q \(<cmdline>\): open log file nodir/q_iops\.1\.log: " \
  -- "$bin" --eta=never --name=j --ioengine=null --size=16k --write_iops_log=nodir/q
[ -e nodir ] && fail "nodir was created"
[ "$fails" -eq 0 ]
