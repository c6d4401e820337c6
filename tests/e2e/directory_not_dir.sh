#!/bin/bash
# directory= naming a file: the refusal names the option's file and line
# (it gave none: "directory=notdir is not a directory").
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
touch notdir
printf '[global]\nrw=write\nsize=16k\n[j]\ndirectory=notdir\n' >job.fio
"$bin" job.fio >out.txt 2>err.txt
expect_eq "exit" "$?" 2
grep -qx "iobench: job 'j': directory=notdir (job.fio:5) is not a directory" err.txt ||
  fail "stderr: $(cat err.txt)"
[ "$fails" -eq 0 ]
