#!/usr/bin/env bash
# A directory= removed before a later stonewall phase (here by the first
# phase's exec_postrun): the job's error named the option twice, "err=2
# (directory=D at j.fio:7: directory=D (j.fio:7): No such file or
# directory)". It names it once.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

mkdir dd
cat >j.fio <<JOB
[a]
filename=a.dat
size=64k
exec_postrun=rmdir $tmp/dd

[b]
stonewall
directory=$tmp/dd
size=64k
JOB
"$bin" j.fio >out 2>err
rc=$?
expect_eq "exit status" "$rc" 1
expect_eq "stderr" "$(cat err)" \
  "iobench: job 'b': err=2 (directory=$tmp/dd (j.fio:8): No such file or directory)"
[ "$fails" -eq 0 ]
