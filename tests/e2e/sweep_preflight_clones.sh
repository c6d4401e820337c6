#!/bin/bash
# End to end: the check of every sweep point before the first one runs
# (docs/sweep.md) leaves to the run only what an earlier point or phase may
# create: a clone whose own file is still missing. It stopped at the first
# such clone and left the job's later clones unchecked, so a later clone's
# target that no run can use (a FIFO) failed at every point instead of
# refusing the sweep; and a device under /dev that is not there, which no
# run creates, was taken for a file still to come. Both now refuse the
# sweep before anything runs, naming the point; with a --sweep-cmd hook
# (which may create the device) the missing device is left to the run.
# And a file an earlier job of the point grows is left to the run too.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
mkfifo "$tmp/j.1.0" || {
  echo "skip: mkfifo failed"
  exit 77
}

# Clone 0's file is still to be created; clone 1's path is a FIFO.
"$bin" --name=j --directory="$tmp" --size=64k --numjobs=2 --rw=read --sweep bs=4k,8k \
  --output-format=json >"$tmp/f.out" 2>"$tmp/f.err"
expect_eq "FIFO of clone 1: exit" "$?" 2
grep -q "^iobench: --sweep point bs=4k: job 'j': directory=$tmp at <cmdline>: target $tmp/j.1.0 is not a regular file" \
  "$tmp/f.err" || fail "FIFO message: $(cat "$tmp/f.err")"
expect_eq "FIFO of clone 1: refused once, before any point" "$(grep -c 'sweep point' "$tmp/f.err")" 1
expect_eq "FIFO of clone 1: nothing ran" "$(wc -c <"$tmp/f.out")" 0
[ -e "$tmp/j.0.0" ] && fail "FIFO of clone 1: clone 0's file was laid out"

# A device that is not there.
dev=/dev/iobench-no-such-device-$$
if [ ! -e "$dev" ]; then
  "$bin" --name=j --filename="$dev" --size=64k --rw=read --sweep bs=4k,8k \
    --output-format=json >"$tmp/d.out" 2>"$tmp/d.err"
  expect_eq "missing device: exit" "$?" 2
  grep -q "^iobench: --sweep point bs=4k: job 'j': device $dev does not exist" "$tmp/d.err" ||
    fail "missing device message: $(cat "$tmp/d.err")"
  expect_eq "missing device: refused once" "$(grep -c 'sweep point' "$tmp/d.err")" 1
  expect_eq "missing device: nothing ran" "$(wc -c <"$tmp/d.out")" 0
  # A hook may create it: each point is left to its run (and fails there).
  "$bin" --name=j --filename="$dev" --size=64k --rw=read --sweep bs=4k,8k --sweep-cmd=true \
    --output-format=json >"$tmp/h.out" 2>"$tmp/h.err"
  expect_eq "missing device with a hook: exit" "$?" 2
  expect_eq "missing device with a hook: each point tried" \
    "$(grep -c "sweep point bs=.*: job 'j': device $dev does not exist" "$tmp/h.err")" 2
fi

# A clone whose file is missing is still left to the run: an earlier
# point creates it (size=64k at bs=4k, then read at bs=8k).
"$bin" --name=k --directory="$tmp" --size=64k --numjobs=2 --ioengine=psync --rw=read \
  --sweep bs=4k,8k --output-format=terse >"$tmp/k.out" 2>"$tmp/k.err"
expect_eq "files to create: exit" "$?" 0
expect_eq "files to create: records" "$(wc -l <"$tmp/k.out")" 4

# A file an earlier job of the point grows (its layout, to size=1m) is not
# judged by its size now: job b, sized by the file, reads 1 MiB when its
# phase runs, as a plain run of the same jobs does (the sweep was refused:
# "the region of f is 4096 bytes"). A file no earlier job grows still is.
head -c 4096 /dev/zero >"$tmp/f"
"$bin" --filename="$tmp/f" --name=a --rw=write --size=1m --bs=64k --name=b --stonewall --rw=read \
  --bs=64k --sweep iodepth=1,2 --output-format=terse >"$tmp/g.out" 2>"$tmp/g.err"
expect_eq "a file an earlier job grows: exit" "$?" 0
expect_eq "a file an earlier job grows: records" "$(grep -c '^3;' "$tmp/g.out")" 4
head -c 4096 /dev/zero >"$tmp/f"
"$bin" --filename="$tmp/f" --name=a --rw=read --size=4k --bs=4k --name=b --stonewall --rw=read \
  --bs=64k --sweep iodepth=1,2 --output-format=terse >"$tmp/n.out" 2>"$tmp/n.err"
expect_eq "a file no earlier job grows: exit" "$?" 2
grep -q "^iobench: --sweep point iodepth=1: job 'b': the region of $tmp/f is 4096 bytes" "$tmp/n.err" ||
  fail "a file no earlier job grows: $(cat "$tmp/n.err")"
[ "$fails" -eq 0 ]
