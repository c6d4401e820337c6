#!/bin/bash
# A log is never written into one of the run's data files (docs/safety.md):
# `--rw=read --filename=D --write_iolog=D` appended the log to D (16384 ->
# 16679 bytes), a file the user asked only to read, and a bw log named as a
# data file would truncate it. Refused before any I/O (exit 2), naming the
# log option, where it was set, and the data file's option; by inode or,
# for a file not made yet, by path. Recording a log that a later phase
# replays stays allowed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
work=$tmp
run=("$bin" --eta=never)
head -c 16384 /dev/urandom >D
sum=$(md5sum <D)
unchanged() { [ "$(md5sum <"$1")" = "$sum" ] || fail "$2: $1 changed ($(stat -c %s "$1") bytes)"; }

expect_run "write_iolog into the file the job reads" 2 \
  "^iobench: job 'j': write_iolog=D \(<cmdline>\) writes D, a file job 'j' reads \(filename=D at <cmdline>\): the log would be appended to it; name the log another file$" \
  -- "${run[@]}" --name=j --rw=read --size=16k --filename=D --write_iolog=D
unchanged D write_iolog

# Another spelling of the same file, in a filename list, from a job file.
mkdir sub && cp D sub/f
printf '[j]\nrw=read\nsize=16k\ndirectory=sub\nfilename=a:f\nwrite_iolog=./sub/../sub/f\n' >l.fio
expect_run "write_iolog, another spelling, a filename list" 2 \
  "^iobench: job 'j': write_iolog=\./sub/\.\./sub/f \(l\.fio:6\) writes \./sub/\.\./sub/f, the same file as sub/f, a file job 'j' reads \(filename=a:f at l\.fio:5\)" \
  -- "${run[@]}" l.fio
unchanged sub/f "filename list"
[ -e sub/a ] && fail "filename list: sub/a was laid out"

# A bw log named as another job's data file: O_TRUNC would empty it.
cp D p_bw.2.log
expect_run "write_bw_log onto another job's file" 2 \
  "^iobench: job 'w': write_bw_log=p \(<cmdline>\) writes p_bw\.2\.log, a file job 'r' reads \(filename=p_bw\.2\.log at <cmdline>\): the log would replace what it holds" \
  -- "${run[@]}" --name=r --rw=read --size=16k --filename=p_bw.2.log \
  --name=w --ioengine=null --size=16k --write_bw_log=p
unchanged p_bw.2.log write_bw_log
[ -e p_bw.1.log ] && fail "write_bw_log: a log was made"

# A generated name not made yet: the same path.
expect_run "write_lat_log onto a generated name" 2 \
  "^iobench: job 'g': write_lat_log=g\.0\.0 \(<cmdline>\) writes g\.0\.0_slat\.1\.log, a file job 'h' writes \(filename_format=" \
  -- "${run[@]}" --name=g --ioengine=null --size=16k --write_lat_log=g.0.0 \
  --name=h --rw=write --size=16k --filename_format='g.0.0_slat.1.log'
[ -e g.0.0_slat.1.log ] && fail "generated name: the file was made"

# The log a job replays.
printf 'fio version 2 iolog\nD add\nD open\nD read 0 4096\nD close\n' >x_iops.1.log
expect_run "write_iops_log onto the read_iolog" 2 \
  "^iobench: job 'r': write_iops_log=x \(<cmdline>\) writes x_iops\.1\.log, the log job 'r' replays \(read_iolog=x_iops\.1\.log at <cmdline>\)" \
  -- "${run[@]}" --name=r --read_iolog=x_iops.1.log --write_iops_log=x
grep -q "^D close$" x_iops.1.log || fail "read_iolog: the log changed"
# ...named with fio's escaped colon: read_iolog=c\:d... reads c:d...
printf 'fio version 2 iolog\nD add\nD open\nD read 0 4096\nD close\n' >'c:d_iops.1.log'
expect_run "write_iops_log onto the escaped read_iolog" 2 \
  "^iobench: job 'r': write_iops_log=c:d \(<cmdline>\) writes c:d_iops\.1\.log, the log job 'r' replays" \
  -- "${run[@]}" --name=r --ioengine=null --read_iolog='c\:d_iops.1.log' --write_iops_log=c:d
grep -q "^D close$" 'c:d_iops.1.log' || fail "escaped read_iolog: the log changed"

# Still allowed: a log elsewhere; record, then replay after a stonewall.
expect_run "a log beside the data" 0 "" -- "${run[@]}" --name=j --rw=read --size=16k \
  --filename=D --write_iolog=D.log --write_bw_log=D
unchanged D "log elsewhere"
printf '[rec]\nrw=read\nsize=16k\nfilename=D\nwrite_iolog=rec.log\n[play]\nstonewall\nread_iolog=rec.log\n' >rp.fio
expect_run "record, then replay" 0 "" -- "${run[@]}" rp.fio
[ "$fails" -eq 0 ]
