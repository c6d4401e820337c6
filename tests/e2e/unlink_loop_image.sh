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
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device, mount)"; exit 77; }
for t in losetup mkfs.ext4; do
  command -v $t >/dev/null || { echo "skip: needs $t"; exit 77; }
done
work=$(mktemp -d /var/tmp/iobench-unlinkloop.XXXXXX)
loop=""
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$work/mnt" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
source "$2/tests/e2e/check.bash"

truncate -s 16m "$work/img"
mkfs.ext4 -q -F "$work/img" || { echo "skip: mkfs.ext4 failed"; exit 77; }
loop=$(losetup -f --show "$work/img" 2>/dev/null) || { loop=""; echo "skip: no loop device"; exit 77; }
mkdir "$work/mnt"
mount -o ro "$loop" "$work/mnt" || { echo "skip: cannot mount $loop"; exit 77; }
mounted=1
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
