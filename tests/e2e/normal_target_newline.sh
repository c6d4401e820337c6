#!/bin/bash
# End to end: the normal report's "target PATH: ..." line stays one line
# when a file name (from --opendir's directory, not the job file, so no
# job-file check saw it) holds a newline: the path is escaped as the table
# notes escape it (a\nb). It was split in two lines, the second "b: fs=...".
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
mkdir od
head -c 65536 /dev/zero >od/$'a\nb' || {
  echo "skip: this file system refuses a newline in a file name"
  exit 77
}
"$bin" --name=j --ioengine=psync --opendir="$PWD/od" --rw=read --bs=4k --io_size=64k \
  --output-format=normal >out.txt 2>err.txt
rc=$?
expect_eq "exit ($(cat err.txt))" "$rc" 0
grep -qF "target $PWD/od/a\\nb: " out.txt || fail "no escaped target line: $(head -5 out.txt)"
grep -q '^b: ' out.txt && fail "target line split: $(head -5 out.txt)"
[ "$fails" -eq 0 ]
