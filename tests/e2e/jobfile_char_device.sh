#!/bin/bash
# /dev/null as a job file was refused ("not a regular file (a character
# device)"); fio 3.33 reads it as an empty job file, so
# `--name=x --ioengine=null --size=1m /dev/null` runs x in both tools. A
# character device is now read as a stream, as a pipe is; one that never
# ends stops at once on its NULs (/dev/zero) or at 1 MiB (/dev/urandom
# gives NULs early too), and a block device is still refused.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

for t in $(tools); do
  "$(cmd "$t")" --name=x --ioengine=null --size=1m --output-format=terse /dev/null >out 2>err
  expect_eq "$t /dev/null: exit" "$?" 0
  expect_eq "$t /dev/null: job x ran" "$(cut -d';' -f3 out)" x
  [ -s err ] && fail "$t /dev/null: stderr $(head -c 300 err)"
done

# Alone it defines no jobs, as an empty file.
"$bin" /dev/null >out 2>err
expect_eq "/dev/null alone: exit" "$?" 2
grep -qF "the job file /dev/null defines no jobs" err || fail "/dev/null alone: $(head -c 300 err)"

for dev in /dev/zero /dev/urandom; do
  timeout 20 "$bin" --parse-only "$dev" >out 2>err
  expect_eq "$dev: exit" "$?" 2
  grep -qF "iobench: job file $dev: a character device that reads NUL bytes, not a job file's text" err ||
    fail "$dev: $(head -c 300 err)"
done
[ "$fails" -eq 0 ]
