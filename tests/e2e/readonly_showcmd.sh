#!/bin/bash
# --readonly --showcmd printed a writing job's command line and exited 0
# (without --readonly in it); fio 3.33 refuses the job (exit 1), and
# iobench's --parse-only and a run refuse it too. Now --showcmd refuses it
# the same way (exit 2, nothing on stdout), also for a --sweep point, and a
# read-only job's printed line keeps --readonly, so that running the line
# checks the same (fio's --showcmd drops it).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

printf '[global]\nioengine=null\nsize=1m\n[a]\nrw=read\n[b]\nrw=write\n' >two.fio
printf '[global]\nioengine=null\nsize=1m\n[a]\nrw=read\n' >one.fio
want="--readonly: job 'b' writes (rw=write at two.fio:7)"
for mode in --showcmd --parse-only; do
  "$bin" --readonly "$mode" two.fio >out 2>err
  expect_eq "$mode two.fio: exit" "$?" 2
  grep -qF -- "$want" err || fail "$mode two.fio: stderr lacks '$want': $(cat err)"
  [ -s out ] && fail "$mode two.fio: printed $(head -c 300 out)"
done
"$bin" --readonly --showcmd --sweep rw=read,write one.fio >out 2>err
expect_eq "--showcmd --sweep rw=read,write: exit" "$?" 2
grep -qF -- "--readonly: job 'a' writes" err || fail "--showcmd --sweep: stderr: $(cat err)"

"$bin" --readonly --showcmd one.fio >out 2>err
expect_eq "--readonly --showcmd one.fio: exit" "$?" 0
expect_eq "--readonly --showcmd one.fio" "$(cat out)" \
  "iobench --readonly --name=a --ioengine=null --size=1m --rw=read"
# The printed line runs, as the job file did.
read -ra words <out
"$bin" "${words[@]:1}" --output-format=terse >run.out 2>err
expect_eq "the printed line runs: exit" "$?" 0
"$bin" --showcmd one.fio >out 2>err
expect_eq "--showcmd one.fio" "$(cat out)" "iobench --name=a --ioengine=null --size=1m --rw=read"
"$bin" --readonly --showcmd --sweep bs=4k,8k one.fio >out 2>err
expect_eq "--readonly --showcmd --sweep: exit" "$?" 0
expect_eq "--readonly --showcmd --sweep: lines with --readonly" \
  "$(grep -c '^iobench --readonly --name=a ' out)" 2
[ "$fails" -eq 0 ]
