#!/usr/bin/env bash
# verify_backlog with writes that fail with ENOSPC, tolerated by
# ignore_error: the backlog read the failed writes back, found the file's
# end there, and failed good data (err=84, exit 1; 256 reads for 128 good
# writes), while the verify note said "0 failed". fio 3.33 drops a failed
# write from its list: 128 reads, exit 0. Now iobench does the same.
# $1: iobench binary, $2: source dir. Exit 77: not root (mounts a small tmpfs).
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to mount a 2 MiB tmpfs"; exit 77; }
mkdir mnt
mount -t tmpfs -o size=2m tmpfs mnt || { echo "skip: cannot mount a tmpfs"; exit 77; }
trap 'umount "$tmp/mnt" 2>/dev/null; cd /; rm -rf "$tmp"' EXIT

for extra in "--rw=write" "--rw=randwrite" \
  "--rw=write --ioengine=libaio --iodepth=8 --verify_backlog=32 --verify_backlog_batch=8"; do
  rm -f mnt/f
  # shellcheck disable=SC2086
  "$bin" --name=w --filename=mnt/f --size=4m --bs=16k --ioengine=psync --verify=crc32c \
    --continue_on_error=write --ignore_error=,ENOSPC --verify_backlog=4 --verify_state_save=0 \
    $extra >out 2>err
  expect_eq "$extra: exit status" "$?" 0
  [ -s err ] && fail "$extra: stderr '$(head -3 err)'"
  grep -q "note: verify: 128 blocks written, 128 verified, 0 skipped, 0 failed" out ||
    fail "$extra: want the 128 written blocks verified, got '$(grep 'note: verify' out)'"
  grep -q "issued rwts: total=128,256," out ||
    fail "$extra: want 128 reads for 256 writes (128 failed), got '$(grep 'issued rwts' out)'"
done

# verify=null keeps no record of its writes: its batches read every one
# back, as fio's (64 writes, 64 reads), failed writes or not.
"$bin" --name=n --filename=n.dat --size=256k --bs=4k --rw=write --verify=null --verify_backlog=4 \
  --verify_state_save=0 >out 2>err
expect_eq "verify=null: exit status" "$?" 0
grep -q "issued rwts: total=64,64," out ||
  fail "verify=null: want 64 reads for 64 writes, got '$(grep 'issued rwts' out)'"

[ "$fails" -eq 0 ] || exit 1
echo "verify_backlog with tolerated ENOSPC: ok"
