#!/bin/bash
# direct=1 on ext4 mounted data=journal: ext4 does O_DIRECT I/O through the
# page cache (it falls back to buffered I/O), so the numbers are buffered
# ones. fio says nothing; iobench's report says so (a header warning, and
# the JSON's), nothing on stderr, the run goes on. The same for a file with
# the data journaling attribute (chattr +j) where it can be set, data=journal
# as the superblock's default, and an overlay with its upper directory there.
# Not on an ordinary ext4 mount, nor for a buffered or trim job.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 32m 512 "" data=journal
# The loop device does direct I/O on its image, so that only the file
# system is in question (without it the loop device is the cause: below).
losetup --direct-io=on "$loop" || { echo "skip: $loop cannot do direct I/O on $img"; exit 77; }
f="$mnt/f"
want="job 'x': direct=1 on $f: ext4 data=journal makes the kernel do O_DIRECT I/O through the page cache, so this measures buffered I/O"

job=(--name=x --filename="$f" --size=1m --bs=4k --direct=1)
"$bin" "${job[@]}" --rw=write >out.txt 2>err.txt
expect_eq "data=journal write: exit" "$?" 0
[ -s err.txt ] && fail "data=journal: stderr: $(cat err.txt)"
grep -qxF "warning: $want" out.txt || fail "data=journal: no warning in: $(head -5 out.txt)"
# The note is true: a direct read leaves the file in the page cache.
drop_file_cache "$f"
if command -v fincore >/dev/null; then
  expect_eq "pages cached after the drop" "$(fincore -bno RES "$f" | tr -d ' ')" 0
fi
"$bin" "${job[@]}" --rw=read --output-format=json >out.json 2>err.txt
expect_eq "data=journal read: exit" "$?" 0
[ -s err.txt ] && fail "data=journal read: stderr: $(cat err.txt)"
grep -qF "\"$want\"" out.json || fail "data=journal: no warning in the JSON"
if command -v fincore >/dev/null; then
  cached=$(fincore -bno RES "$f" | tr -d ' ')
  expect_eq "pages cached by a direct=1 read on data=journal" "$cached" 1048576
fi
# Buffered jobs are buffered anyway: no note.
"$bin" --name=x --filename="$f" --size=1m --bs=4k --rw=read >out.txt 2>err.txt
expect_eq "buffered: exit" "$?" 0
grep -q "^warning: .*data=journal" out.txt && fail "buffered job got the direct=1 note"

# An ordinary (data=ordered) ext4: no note.
umount "$mnt"
mount "$loop" "$mnt" || fail "remount data=ordered"
"$bin" "${job[@]}" --rw=read >out.txt 2>err.txt
expect_eq "data=ordered: exit" "$?" 0
grep -q "page cache, so this measures buffered" out.txt && fail "data=ordered: note: $(grep warning out.txt)"

# A loop device without direct I/O (losetup's default) reads and writes
# its image through the page cache: the note names it.
losetup --direct-io=off "$loop" || fail "losetup --direct-io=off"
drop_file_cache "$f"
"$bin" "${job[@]}" --rw=read >out.txt 2>err.txt
expect_eq "loop dio=0: exit" "$?" 0
[ -s err.txt ] && fail "loop dio=0: stderr: $(cat err.txt)"
dev=${loop#/dev/}
grep -qxF "warning: job 'x': direct=1 on $f: $dev's buffered I/O on its backing file (loop/dio=0; losetup --direct-io=on) makes the kernel do O_DIRECT I/O through the page cache, so this measures buffered I/O" out.txt ||
  fail "loop dio=0: no warning: $(grep warning out.txt)"
if command -v fincore >/dev/null; then
  cached=$(fincore -bno RES "$img" | tr -d ' ')
  [ "$cached" -ge 1048576 ] || fail "loop dio=0: the image has $cached bytes cached after a 1 MiB direct read"
fi
losetup --direct-io=on "$loop" || fail "losetup --direct-io=on again"

# A file with the data journaling attribute, where chattr may set it (it
# needs CAP_SYS_RESOURCE).
if command -v chattr >/dev/null && touch "$mnt/j" && chattr +j "$mnt/j" 2>/dev/null; then
  "$bin" --name=x --filename="$mnt/j" --size=1m --bs=4k --direct=1 --rw=write >out.txt 2>err.txt
  expect_eq "chattr +j: exit" "$?" 0
  grep -qxF "warning: job 'x': direct=1 on $mnt/j: the file's data journaling attribute (chattr +j) makes the kernel do O_DIRECT I/O through the page cache, so this measures buffered I/O" out.txt ||
    fail "chattr +j: no warning: $(grep warning out.txt)"
else
  echo "note: chattr +j not permitted here; the attribute's case is not checked"
fi

# data=journal as the superblock's default mount option (tune2fs -o
# journal_data): the mount table does not show it, /proc/fs/ext4 does.
umount "$mnt"
command -v tune2fs >/dev/null || { echo "skip: no tune2fs"; exit 77; }
tune2fs -o journal_data "$loop" >/dev/null || fail "tune2fs -o journal_data"
mount "$loop" "$mnt" || fail "mount with the superblock's data=journal"
"$bin" "${job[@]}" --rw=read >out.txt 2>err.txt
expect_eq "superblock data=journal: exit" "$?" 0
grep -qxF "warning: $want" out.txt || fail "superblock data=journal: no warning: $(grep warning out.txt)"
# A trim does not go through the page cache: no note.
"$bin" --name=x --filename="$f" --size=1m --bs=4k --direct=1 --rw=trim >out.txt 2>err.txt
grep -q "data=journal" out.txt && fail "trim job got the note"

# An overlay whose upper directory is on it: the overlay passes O_DIRECT
# on to ext4, which serves it buffered.
mkdir -p "$mnt/lo" "$mnt/up" "$mnt/wk" "$tmp/ovl"
trap 'umount "$tmp/ovl" 2>/dev/null; scratch_cleanup' EXIT
if mount -t overlay overlay -o "lowerdir=$mnt/lo,upperdir=$mnt/up,workdir=$mnt/wk" "$tmp/ovl" 2>/dev/null; then
  "$bin" --name=x --filename="$tmp/ovl/g" --size=1m --bs=4k --direct=1 --rw=write >out.txt 2>err.txt
  expect_eq "overlay: exit" "$?" 0
  grep -qxF "warning: job 'x': direct=1 on $tmp/ovl/g: its upper directory's ext4 data=journal makes the kernel do O_DIRECT I/O through the page cache, so this measures buffered I/O" out.txt ||
    fail "overlay: no warning: $(grep warning out.txt)"
  umount "$tmp/ovl"
else
  echo "note: no overlay mount here; the overlay case is not checked"
fi

[ "$fails" -eq 0 ]
