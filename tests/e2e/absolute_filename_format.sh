#!/bin/bash
# An absolute filename_format with directory=: iobench ignored directory=
# and used the path itself (filename_format=/dev/loop0 wrote the block
# device; with unlink=1 it deleted the user's file), where fio uses the
# regular file <directory>/<format>. As for directory= with an absolute
# filename=, the pair is refused before anything is opened, naming the
# option and its place. A file stands in for the device.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir d
printf 'keep me\n' >victim
"$bin" --name=j --rw=write --size=64k --directory=d --filename_format="$tmp/victim" --unlink=1 \
  >out.txt 2>err.txt
expect_eq "command line: exit" "$?" 2
cmp -s victim <(printf 'keep me\n') || fail "victim changed or removed (command line)"
grep -q "filename_format=$tmp/victim is an absolute path but directory=d is set: fio would use d$tmp/victim" \
  err.txt || fail "command line: stderr: $(cat err.txt)"
[ -z "$(ls d)" ] || fail "created in d: $(ls -R d)"
cat >job.fio <<JOB
[global]
directory=d
[j]
rw=write
size=64k
filename_format=$tmp/victim
JOB
"$bin" job.fio >out.txt 2>err.txt
expect_eq "job file: exit" "$?" 2
grep -q "job.fio:6:1: filename_format=$tmp/victim is an absolute path" err.txt ||
  fail "job file: stderr: $(cat err.txt)"
cmp -s victim <(printf 'keep me\n') || fail "victim changed or removed (job file)"
# A relative filename_format still goes under directory=.
"$bin" --name=j --rw=write --size=16k --directory=d --filename_format='sub/$jobnum' \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "relative: exit" "$?" 0
expect_eq "relative: d/sub/0 size" "$(stat -c %s d/sub/0 2>/dev/null)" 16384
[ "$fails" -eq 0 ]
