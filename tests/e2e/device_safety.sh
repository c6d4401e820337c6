#!/bin/bash
# Device safety end to end (issue 6), root only: a loop device with ext4
# mounted from it (read-only while the device's bytes are compared).
#  - writing (and trimming) the device is refused before any I/O, naming the
#    mount point, the override, and the options that name the device and
#    make the job write (a replayed log's too); the device's bytes are unchanged; the same
#    for a job named after the device ([/dev/loopN], no filename=)
#  - reading it is allowed
#  - allow_mounted_write=1 overrides
#  - --readonly refuses a write job, a job that would lay out a file, and
#    unlink=1; a read of an existing file is fine
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no loop devices).
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device, mount)"; exit 77; }
for t in losetup mkfs.ext4 sha256sum; do
  command -v $t >/dev/null || { echo "skip: needs $t"; exit 77; }
done

work=$(mktemp -d /var/tmp/iobench-devsafety.XXXXXX)
loop=""
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$work/mnt" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
source "$2/tests/e2e/check.bash"

truncate -s 64m "$work/img"
# No lazy init: nothing may write to the device in the background while we
# compare checksums.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$work/img" ||
  { echo "skip: mkfs.ext4 failed"; exit 77; }
loop=$(losetup -f --show "$work/img" 2>/dev/null) || { loop=""; echo "skip: no loop device"; exit 77; }
mkdir "$work/mnt"
# Read-only first: a clean ext4 mounted ro writes nothing to its device, so
# the device's bytes change only if iobench writes them. (A rw mount writes
# its journal for seconds after mounting; fsfreeze did not always stop that
# on a loaded machine.) The mount is still a mount: writes are refused.
mount -o ro "$loop" "$work/mnt" || { echo "skip: cannot mount $loop"; exit 77; }
mounted=1
sum() { sha256sum "$loop" | cut -d' ' -f1; }
before=$(sum)


refusal="refusing to write to $loop .*mounted at $work/mnt \(ext4\).*allow_mounted_write=1"
expect_run write-refused 2 "$refusal" -- \
  "$bin" --name=w --filename="$loop" --rw=write --size=1m
expect_run randwrite-refused 2 "$refusal" -- \
  "$bin" --name=w --filename="$loop" --rw=randwrite --size=1m --ioengine=io_uring --direct=1
expect_run trim-refused 2 "refusing to trim $loop .*rw=trim at <cmdline>\): mounted at $work/mnt \(ext4\).*allow_mounted_write=1 to trim anyway" -- \
  "$bin" --name=t --filename="$loop" --rw=trim --size=1m
grep -q "groupid=" "$work/out" && fail "trim-refused: a report was printed"
# The refusal names what put the device in the job and what makes it write:
# filename= and rw= with their file:line, or the replayed log (its entries
# write, whatever rw= says).
printf '[global]\nbs=4k\n[w]\nfilename=%s\nrw=randwrite\nsize=1m\n' "$loop" >"$work/named.fio"
expect_run write-refused-names-options 2 \
  "refusing to write to $loop \([^;]*; filename=$loop at $work/named.fio:4; rw=randwrite at $work/named.fio:5\): mounted" -- \
  "$bin" "$work/named.fio"
printf 'fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n%s close\n' "$loop" "$loop" "$loop" "$loop" >"$work/w.log"
printf '[r]\nread_iolog=%s\nrw=read\n' "$work/w.log" >"$work/replay.fio"
expect_run replay-write-refused 2 \
  "refusing to write to $loop \([^;]*; read_iolog=$work/w.log at $work/replay.fio:2, whose log writes\): mounted" -- \
  "$bin" "$work/replay.fio"
# The image the loop device reads: a write to it lands under the mounted
# filesystem, though the loop device registers no holder on it.
expect_run backing-file-refused 2 "refusing to write to $work/img \(filename=$work/img at <cmdline>; rw=write at <cmdline>\): backs $loop, mounted at $work/mnt \(ext4\).*allow_mounted_write=1" -- \
  "$bin" --name=w --filename="$work/img" --rw=write --size=64k --offset=8m
# A job named after the device with no filename= writes the device (as fio,
# fio's examples/disk-zone-profile.fio): the same refusal.
printf '[%s]\nrw=write\nsize=1m\n' "$loop" >"$work/byname.fio"
expect_run job-name-write-refused 2 "$refusal" -- "$bin" "$work/byname.fio"
# The device in [global], another file in the job: fio writes both (each
# filename= adds to the job's files), so the device is still refused.
printf '[global]\nrw=write\nsize=1m\nfilename=%s\n[w]\nfilename=%s\n' "$loop" "$work/other" \
  >"$work/global.fio"
expect_run global-device-write-refused 2 "$refusal" -- "$bin" "$work/global.fio"
[ -e "$work/other" ] && fail "global-device-write-refused: the job's own file was written"
expect_run global-device-readonly 2 "readonly" -- "$bin" --readonly "$work/global.fio"
after=$(sum)
[ "$before" = "$after" ] || fail "the refused jobs changed the device"

expect_run read-allowed 0 "" -- "$bin" --name=r --filename="$loop" --rw=read --size=1m
[ "$before" = "$(sum)" ] || fail "a read job changed the device"
mount -o remount,rw "$work/mnt" || fail "remount rw"

# The override: write where the (empty) filesystem keeps nothing of its own
# that we need afterwards; the image is thrown away anyway.
expect_run override-writes 0 "" -- \
  "$bin" --name=w --filename="$loop" --rw=write --size=1m --offset=48m --allow_mounted_write=1
[ "$before" != "$(sum)" ] || fail "allow_mounted_write=1: nothing was written"

# --readonly
expect_run readonly-write-device 2 "readonly" -- \
  "$bin" --readonly --name=w --filename="$loop" --rw=write --size=1m
expect_run readonly-write-file 2 "readonly" -- \
  "$bin" --readonly --name=w --filename="$work/mnt/f" --rw=write --size=1m
[ -e "$work/mnt/f" ] && fail "readonly-write-file: the file was created"
expect_run readonly-layout 2 "readonly" -- \
  "$bin" --readonly --name=r --filename="$work/mnt/g" --rw=read --size=1m
[ -e "$work/mnt/g" ] && fail "readonly-layout: the file was laid out"
head -c 1048576 /dev/zero >"$work/mnt/h"
expect_run readonly-unlink 2 "unlink" -- \
  "$bin" --readonly --name=r --filename="$work/mnt/h" --rw=read --size=1m --unlink=1
[ -e "$work/mnt/h" ] || fail "readonly-unlink: the file was deleted"
expect_run readonly-read-existing 0 "" -- \
  "$bin" --readonly --name=r --filename="$work/mnt/h" --rw=read --size=1m
expect_run readonly-read-device 0 "" -- \
  "$bin" --readonly --name=r --filename="$loop" --rw=randread --size=1m

# unlink=1 removes regular files only, as fio: a device node named as the
# target (here a private copy of /dev/null's and the loop device's) stays,
# whether the job ran or was refused.
node() { [ -c "$work/null" ] || mknod "$work/null" c 1 3 || fail "mknod"; }
node
expect_run unlink-char-device 0 "" -- \
  "$bin" --name=w --filename="$work/null" --rw=write --size=64k --unlink=1
[ -c "$work/null" ] || fail "unlink=1 deleted a character device node"
node
expect_run unlink-char-device-each-loop 0 "" -- \
  "$bin" --name=w --filename="$work/null" --rw=write --size=64k --unlink=1 --loops=2 \
  --unlink_each_loop=1
[ -c "$work/null" ] || fail "unlink_each_loop=1 deleted a character device node"
node
expect_run unlink-char-device-refused 2 "sqthread_poll_cpu" -- \
  "$bin" --name=w --filename="$work/null" --rw=write --size=64k --unlink=1 \
  --ioengine=io_uring --sqthread_poll=1 --sqthread_poll_cpu=4095
[ -c "$work/null" ] || fail "unlink=1 of a refused job deleted a character device node"
expect_run unlink-block-device 0 "" -- \
  "$bin" --name=r --filename="$loop" --rw=read --size=64k --unlink=1
[ -b "$loop" ] || fail "unlink=1 deleted the block device node"

echo "$fails failed"
[ "$fails" -eq 0 ]
