#!/bin/bash
# An overlay's target is described by the directory that holds its data:
# the upper directory for files the job creates or writes (opening a file
# for writing copies it up), the lower layer for an existing file only
# there that the job only reads. The header named the upper directory's
# file system always: a read of a lower-only file on ext4, with the upper
# directory on tmpfs, was called "no disk is involved" while the disk did
# the reads. An overlay mounted with a relative upperdir= cannot be placed
# from the mount table: the device is unknown, not guessed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (mount)"; exit 77; }
disk_dir=$(mktemp -d /var/tmp/iobench-ovl.XXXXXX)
[ "$(stat -f -c %T "$disk_dir")" = tmpfs ] && { echo "skip: /var/tmp is on tmpfs"; exit 77; }
mnt="$tmp/mnt"
mkdir -p "$mnt" "$tmp/up" "$tmp/wk" "$disk_dir/lower" "$disk_dir/up" "$disk_dir/wk" "$tmp/lower"
trap 'mountpoint -q "$mnt" && umount "$mnt"; rm -rf "$disk_dir"; cd /; rm -rf "$tmp"' EXIT
head -c 1M /dev/zero >"$disk_dir/lower/low"
head -c 1M /dev/zero >"$tmp/lower/low"
ovl() { mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" "$mnt"; }
ovl "$disk_dir/lower" "$tmp/up" "$tmp/wk" || { echo "skip: cannot mount an overlay"; exit 77; }
memory="is on overlay with its upper directory on tmpfs, so no disk is involved"

# Lower on disk, upper on tmpfs. A read of the lower-only file: the disk's.
"$bin" --name=r --filename="$mnt/low" --size=1m --bs=4k --rw=read --direct=1 >out.txt 2>err.txt
expect_eq "lower-only read: exit" "$?" 0
[ -s err.txt ] && fail "lower-only read: stderr: $(cat err.txt)"
grep -q "no disk is involved" out.txt && fail "lower-only read: memory warning: $(grep warning out.txt)"
grep -q "^target $mnt/low: fs=overlay, device=none" out.txt && fail "lower-only read: $(grep ^target out.txt)"
# A write to it, or a new file: the upper directory's (tmpfs).
"$bin" --name=w --filename="$mnt/low" --size=1m --bs=4k --rw=write --direct=1 >out.txt 2>err.txt
expect_eq "lower-only write: exit" "$?" 0
grep -qF "warning: job 'w': $mnt/low $memory" out.txt || fail "write: no memory warning: $(grep warning out.txt)"
[ -f "$tmp/up/low" ] || fail "the write did not copy the file up (the test's premise)"
"$bin" --name=n --filename="$mnt/new" --size=1m --bs=4k --rw=write --direct=1 >out.txt 2>err.txt
grep -qF "warning: job 'n': $mnt/new $memory" out.txt || fail "new file: no memory warning: $(grep warning out.txt)"
umount "$mnt"

# Lower on tmpfs, upper on disk: a read of a lower-only file is in memory,
# and the warning names the layer.
ovl "$tmp/lower" "$disk_dir/up" "$disk_dir/wk" || fail "mount the second overlay"
"$bin" --name=r --filename="$mnt/low" --size=1m --bs=4k --rw=read --direct=1 >out.txt 2>err.txt
expect_eq "lower-only read in memory: exit" "$?" 0
grep -qF "warning: job 'r': $mnt/low is on overlay with its lower layer $tmp/lower on tmpfs, so no disk is involved" out.txt ||
  fail "lower in memory: $(grep warning out.txt)"
umount "$mnt"

# A relative upperdir=: not placed.
(cd "$tmp" && mount -t overlay overlay -o "lowerdir=$tmp/lower,upperdir=up,workdir=wk" "$mnt") ||
  fail "mount with a relative upperdir"
"$bin" --name=n --filename="$mnt/new2" --size=1m --bs=4k --rw=write --direct=1 >out.txt 2>err.txt
expect_eq "relative upperdir: exit" "$?" 0
grep -qF "target $mnt/new2: fs=overlay, device=unknown (overlay: the directory under it is not known)" out.txt ||
  fail "relative upperdir: $(grep ^target out.txt)"
grep -q "no disk is involved" out.txt && fail "relative upperdir: a guess: $(grep warning out.txt)"
[ "$fails" -eq 0 ]
