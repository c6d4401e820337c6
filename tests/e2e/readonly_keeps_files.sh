#!/bin/bash
# --readonly leaves the user's files as they were: a read job that would
# delete its files (unlink=1, unlink_each_loop=1) or truncate a buffer file
# (mem=mmap:FILE on a file that exists) is refused before any I/O, and by
# --parse-only too. (unlink_each_loop=1 removed the file between loops.)
source "$(dirname "$0")/setup.bash"

head -c 65536 /dev/urandom >keep
sum=$(md5sum <keep)
refused() {  # NAME WANT-IN-STDERR ARGS...
  local name=$1 want=$2
  shift 2
  "$bin" --readonly "$@" >out 2>err
  local rc=$?
  expect_eq "$name: exit" "$rc" 2
  grep -qF -- "$want" err || fail "$name: stderr lacks '$want': $(cat err)"
  [ -f keep ] && [ "$(md5sum <keep)" = "$sum" ] || fail "$name: keep was changed or removed"
  [ -f keep ] || head -c 65536 /dev/urandom >keep
  sum=$(md5sum <keep)
}
common=(--name=a --rw=read --size=64k --filename=keep)
refused unlink_each_loop "--readonly: job 'a' deletes its files (unlink_each_loop=1 at <cmdline>)" \
  "${common[@]}" --unlink_each_loop=1 --loops=2
refused unlink_each_loop-parse-only "--readonly: job 'a' deletes its files (unlink_each_loop=1 at <cmdline>)" \
  --parse-only "${common[@]}" --unlink_each_loop=1 --loops=2
refused unlink-parse-only "--readonly: job 'a' deletes its files (unlink=1 at <cmdline>)" \
  --parse-only "${common[@]}" --unlink=1
printf '[a]\nrw=read\nsize=64k\nfilename=keep\nunlink_each_loop=1\n' >ro.fio
refused unlink_each_loop-jobfile "(unlink_each_loop=1 at ro.fio:5)" ro.fio
refused mem-file "--readonly: job 'a' would truncate keep to the size of its buffers (mem=mmap:keep at <cmdline>)" \
  "${common[@]}" --mem=mmap:keep
refused mem-file-null "would truncate keep" --name=a --rw=read --size=64k --ioengine=null \
  --mem=mmapshared:keep

# What is left runs and leaves the file alone.
"$bin" --readonly "${common[@]}" --loops=2 >out 2>err
expect_eq "plain read: exit" "$?" 0
expect_eq "plain read: file kept" "$(md5sum <keep)" "$sum"
[ "$fails" -eq 0 ]
