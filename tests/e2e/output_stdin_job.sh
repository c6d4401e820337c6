#!/bin/bash
# --output naming the job file read from stdin (`iobench - --output=j.fio <
# j.fio`): the report replaced the job file, which a named job file, an
# include or a link to one is refused for. stdin has no path, so its device
# and inode are compared. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
printf '[n]\nioengine=null\nsize=64k\n' >n3.fio
cp n3.fio orig.fio
ln n3.fio hard.fio
expect_run "- --output=the stdin file" 2 \
  "^iobench: --output=n3.fio names the file on standard input, the job file this run reads" -- \
  sh -c '"$0" - -m --output=n3.fio <n3.fio' "$bin"
cmp -s n3.fio orig.fio || fail "n3.fio was changed: $(head -c 100 n3.fio)"
expect_run "- --output=a hard link to the stdin file" 2 "names the file on standard input" -- \
  sh -c '"$0" - -m --output=hard.fio <n3.fio' "$bin"
cmp -s n3.fio orig.fio || fail "n3.fio was changed through hard.fio"
# Another file, or stdin a pipe: the run is made.
expect_run "- --output=another file" 0 "" -- sh -c '"$0" - -m --output=rep.txt <orig.fio' "$bin"
grep -q '^3;iobench-' rep.txt || fail "rep.txt: $(head -c 100 rep.txt)"
expect_run "- from a pipe" 0 "" -- sh -c 'cat orig.fio | "$0" - -m --output=rep2.txt' "$bin"
[ "$fails" -eq 0 ]
