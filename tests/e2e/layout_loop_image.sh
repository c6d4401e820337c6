#!/bin/bash
# A read job lays out a file shorter than its region: it extends the file.
# On the image under a mounted loop device that is a write to the device's
# image, which iobench refuses for a write job; a read job with size=17m
# on a 16 MiB image grew it (the job ran, "Laying out IO file"). Now the
# layout is refused before any I/O, naming the job, the sizes, the option
# and the loop device, and the image keeps its size; inside the image the
# read runs, allow_mounted_write=1 overrides, and after umount and detach
# the file is laid out as before. Root only.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no loop devices).
set -u
source "$2/tests/e2e/mounted_image.bash"
mounted_image iobench-layoutloop 16m "$1" "$2"
sum=$(sha256sum <"$work/img")
size() { stat -c %s "$work/img"; }

expect_run "size past the image refused" 2 \
  "^iobench: job 'j': refusing to lay out $work/img, extending it from 16777216 to 17825792 bytes \(size=17m at <cmdline>\): backs $loop, mounted at $work/mnt \(ext4\).*allow_mounted_write=1" \
  -- "$bin" --name=j --filename="$work/img" --rw=read --size=17m --io_size=64k
expect_eq "size= refused: image size" "$(size)" 16777216
# filesize= sizes the file itself; a job file names its line; any engine.
printf '[j]\nfilename=%s\nrw=randread\nfilesize=20m\nio_size=64k\nioengine=pvsync2\n' \
  "$work/img" >"$work/f.fio"
expect_run "filesize past the image refused" 2 \
  "refusing to lay out $work/img, extending it from 16777216 to 20971520 bytes \(filesize=20m at f.fio:4\): backs $loop" \
  -- "$bin" f.fio
expect_eq "filesize= refused: image size" "$(size)" 16777216
[ "$(sha256sum <"$work/img")" = "$sum" ] || fail "the image changed"
# Inside the image: nothing to lay out, the read runs.
expect_run "read inside the image runs" 0 "" \
  -- "$bin" --name=j --filename="$work/img" --rw=read --size=8m --io_size=64k --output-format=terse
# The override, as for a write.
expect_run "allow_mounted_write=1 lays out" 0 "" -- "$bin" --name=j --filename="$work/img" \
  --rw=read --size=17m --io_size=64k --allow_mounted_write=1 --output-format=terse
expect_eq "allow_mounted_write=1: image size" "$(size)" 17825792
# Unmounted and detached: an ordinary file, laid out.
umount "$work/mnt" && mounted=""
losetup -d "$loop" && loop=""
expect_run "detached image laid out" 0 "" -- "$bin" --name=j --filename="$work/img" --rw=read \
  --size=18m --io_size=64k --output-format=terse
expect_eq "detached: image size" "$(size)" 18874368
[ "$fails" -eq 0 ]
