#!/bin/bash
# unlink=1 (and unlink_each_loop=1) delete a job's files, a read job's too.
# A read job with unlink=1 on (a hard link to) the image under a mounted
# loop device removed it, where the same job writing was refused. Now the
# write-safety check applies to the files a job will unlink: refused before
# any I/O, naming the loop device, the mount point and the option; the file
# stays. allow_mounted_write=1 overrides it, as for a write; after umount
# and detach the file goes as before. Root only.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no loop devices).
set -u
source "$2/tests/e2e/mounted_image.bash"
mounted_image iobench-unlinkloop 16m "$1" "$2"
ln "$work/img" "$work/img.hl"

expect_run "unlink=1 read of a hard link refused" 2 \
  "^iobench: job 'j': refusing to delete $work/img.hl \(unlink=1 at <cmdline>\): backs $loop, mounted at $work/mnt \(ext4\).*allow_mounted_write=1" \
  -- "$bin" --name=j --filename="$work/img.hl" --rw=read --size=1m --unlink=1
[ -e "$work/img.hl" ] || fail "unlink=1: the hard link was removed"
printf '[j]\nfilename=%s\nrw=randread\nsize=1m\nloops=2\nunlink_each_loop=1\n' "$work/img" >"$work/u.fio"
expect_run "unlink_each_loop=1 of the image refused" 2 \
  "refusing to delete $work/img \(unlink_each_loop=1 at u.fio:6\): backs $loop" -- "$bin" u.fio
[ -e "$work/img" ] || fail "unlink_each_loop=1: the image was removed"
expect_eq "image links" "$(stat -c %h "$work/img")" 2
# A read job without unlink runs.
expect_run "read without unlink runs" 0 "" \
  -- "$bin" --name=j --filename="$work/img.hl" --rw=read --size=1m --output-format=terse
# The override, as for a write.
expect_run "allow_mounted_write=1 deletes" 0 "" -- "$bin" --name=j --filename="$work/img.hl" \
  --rw=read --size=1m --unlink=1 --allow_mounted_write=1 --output-format=terse
[ -e "$work/img.hl" ] && fail "allow_mounted_write=1: the hard link stayed"
# Unmounted and detached: an ordinary file, removed.
umount "$work/mnt" && mounted=""
losetup -d "$loop" && loop=""
expect_run "unmounted image deleted" 0 "" -- "$bin" --name=j --filename="$work/img" --rw=read \
  --size=1m --unlink=1 --output-format=terse
[ -e "$work/img" ] && fail "unmounted: unlink=1 left the image"
[ "$fails" -eq 0 ]
