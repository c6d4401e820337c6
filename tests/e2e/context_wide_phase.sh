#!/bin/bash
# A phase with more than 4 target files describes each job's first file on
# each file system and device, not just the phase's first 4 files: four jobs
# on tmpfs and a fifth on a loop device got four tmpfs target lines, "note:
# context: described 4 of 5 target files", a table caption of "tmpfs" alone
# and no loop/dio=0 warning for the fifth; four jobs on ext4 and a fifth on
# tmpfs, no "disk test on memory" warning (nor a fifth job on the same
# tmpfs, though it read like one). Repeats of one kind stay capped:
# a job of 50 files in one directory describes 4 of them.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v losetup >/dev/null || { echo "skip: no losetup"; exit 77; }
scratch_loop 64m 512
shm=$(mktemp -d /dev/shm/iobench_ctx.XXXXXX) || { echo "skip: no /dev/shm"; exit 77; }
trap 'rm -rf "$shm"; scratch_cleanup' EXIT
[ "$(stat -f -c %T "$shm")" = tmpfs ] || { echo "skip: /dev/shm is not tmpfs"; exit 77; }
# losetup's default, said here: the loop device reads its image buffered.
losetup --direct-io=off "$loop" || fail "losetup --direct-io=off"
dev=${loop#/dev/}

targets() { grep -c '^target /' out.txt; }  # the header's, not the table's footnotes
four=()
for j in a b c d; do four+=(--name="$j" --directory="$shm"); done

# 1. Four jobs on tmpfs, a fifth reading the loop device with direct=1.
"$bin" --size=1m "${four[@]}" --name=raw --filename="$loop" --direct=1 \
  --output-format=normal,table >out.txt 2>err.txt
expect_eq "tmpfs x4 + loop: exit" "$?" 0
[ -s err.txt ] && fail "tmpfs x4 + loop: stderr: $(cat err.txt)"
expect_eq "tmpfs x4 + loop: target lines" "$(targets)" 5
grep -q "^target $loop: device=$dev" out.txt || fail "no target line for $loop: $(grep '^target' out.txt)"
grep -qxF "warning: job 'raw': direct=1 on $loop: $dev's buffered I/O on its backing file (loop/dio=0; losetup --direct-io=on) makes the kernel do O_DIRECT I/O through the page cache, so this measures buffered I/O" out.txt ||
  fail "tmpfs x4 + loop: no loop/dio=0 warning: $(grep -E '^(warning|note)' out.txt)"
grep -q "described .* target files" out.txt && fail "tmpfs x4 + loop: $(grep described out.txt)"
# The table's caption names both kinds of target.
grep -q "^4k read, \(buffered, \)\?tmpfs / $dev on " out.txt ||
  fail "tmpfs x4 + loop: caption: $(grep '^4k read' out.txt)"

# 2. Four jobs on ext4, a fifth on tmpfs that reads like a disk test (its
# directory is named for one; direct=1 would need tmpfs O_DIRECT, Linux 6.6).
command -v mkfs.ext4 >/dev/null || { echo "skip: no mkfs.ext4"; exit 77; }
mkfs.ext4 -q -F -E nodiscard "$loop" || { echo "skip: mkfs.ext4 failed"; exit 77; }
mount "$loop" "$mnt" || { echo "skip: cannot mount ext4 on $loop"; exit 77; }
mkdir "$shm/nvme"
four=()
for j in a b c d; do four+=(--name="$j" --directory="$mnt"); done
"$bin" --size=1m "${four[@]}" --name=mem --directory="$shm/nvme" \
  --output-format=normal,table >out.txt 2>err.txt
expect_eq "ext4 x4 + tmpfs: exit" "$?" 0
[ -s err.txt ] && fail "ext4 x4 + tmpfs: stderr: $(cat err.txt)"
expect_eq "ext4 x4 + tmpfs: target lines" "$(targets)" 5
grep -qF "warning: job 'mem': $shm/nvme/mem.0.0 is on tmpfs, so no disk is involved" out.txt ||
  fail "ext4 x4 + tmpfs: no disk-test-on-memory warning: $(grep -E '^(warning|note)' out.txt)"
grep -q "^4k read, \(buffered, \)\?ext4 on $dev[ ,].* / tmpfs, " out.txt ||
  fail "ext4 x4 + tmpfs: caption: $(grep '^4k read' out.txt)"

# 3. A fifth job on the same file system as the first four is described
# too: its warnings are its own (it got none, no file of it was described).
# The normal header prints a target line past the first four only for a file
# system or device not shown yet.
four=()
for j in a b c d; do four+=(--name="$j" --directory="$shm"); done
"$bin" --size=1m "${four[@]}" --name=ssd --directory="$shm" >out.txt 2>err.txt
expect_eq "tmpfs x5: exit" "$?" 0
# Its line is folded into a count (the same file system as the four shown):
# a job file of many sections on one file system gets no wall of lines.
expect_eq "tmpfs x5: target lines" "$(targets)" 4
grep -qxF "note: 1 more target on the file systems and devices above (each is in the JSON report's context)" out.txt ||
  fail "tmpfs x5: no folded-lines note: $(grep -E '^(warning|note)' out.txt)"
grep -qF "warning: job 'ssd': $shm/ssd.0.0 is on tmpfs, so no disk is involved" out.txt ||
  fail "tmpfs x5: no disk-test-on-memory warning: $(grep -E '^(warning|note)' out.txt)"

# 4. One job's many files in one directory: 4 described, the rest counted.
"$bin" --name=wide --directory="$shm" --nrfiles=50 --size=200k >out.txt 2>err.txt
expect_eq "nrfiles=50: exit" "$?" 0
expect_eq "nrfiles=50: target lines" "$(targets)" 4
grep -qxF "note: context: described 4 of 50 target files" out.txt ||
  fail "nrfiles=50: no note: $(grep -E '^(warning|note)' out.txt)"

# 5. One job's files on two file systems: its first file on the second is
# described too.
files="$shm/f1:$shm/f2:$shm/f3:$shm/f4:$shm/f5:$mnt/g"
"$bin" --name=two --filename="$files" --size=24k >out.txt 2>err.txt
expect_eq "two file systems: exit" "$?" 0
expect_eq "two file systems: target lines" "$(targets)" 5
grep -q "^target $mnt/g: fs=ext4" out.txt || fail "no target line for $mnt/g: $(grep '^target' out.txt)"
grep -qxF "note: context: described 5 of 6 target files" out.txt ||
  fail "two file systems: no note: $(grep -E '^(warning|note)' out.txt)"

[ "$fails" -eq 0 ]
