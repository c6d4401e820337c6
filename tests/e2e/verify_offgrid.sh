#!/bin/bash
# Every written block is read back and checked, once, whatever its
# alignment (fio verifies each write it logged):
#  1. writes off the verify_interval grid from offset 0 (offset=1k, holes,
#     bssplit and bs_unaligned sizes, blockalign, a short last block) are
#     read back; they used to be written and never read (0 verify reads);
#  2. verify_only with verify_state_load finds a flipped byte in them (it
#     used to exit 0 without a read);
#  3. blockalign below bs and random_distribution=zipf turn the random map
#     off: no false "corrupted" on good data (exit 1, err=84 before);
#  4. io_uring with direct=1 and offset=512 on a loop device (root only):
#     256 writes, 256 verify reads, as fio.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
# counts ARGS...: runs a fresh write + verify job on psync; prints
# "error writes reads".
counts() {
  rm -f "$f"
  run --name=j --filename="$f" --ioengine=psync --verify=crc32c --verify_state_save=0 "$@"
  [ "$rc" -eq 0 ] || fail "$*: exit $rc"
  jget '"%d %d %d" % (doc["jobs"][0]["error"], doc["jobs"][0]["write"]["total_ios"], doc["jobs"][0]["read"]["total_ios"])'
}
# same ARGS...: as many verify reads as writes, and no error.
same() {
  local c
  c=$(counts "$@") || exit 1
  read -r err w r <<<"$c"
  [ "$err" = 0 ] && [ "$w" -gt 0 ] && [ "$w" = "$r" ] || fail "$*: error/writes/reads $c"
}

# some ARGS...: no error, and verify reads, at most one per write (a block
# written twice is read once).
some() {
  local c
  c=$(counts "$@") || exit 1
  read -r err w r <<<"$c"
  [ "$err" = 0 ] && [ "$r" -gt 0 ] && [ "$r" -le "$w" ] || fail "$*: error/writes/reads $c"
}

# 1.
same --offset=1k --size=64k --bs=4k --rw=write
some --offset=1k --size=64k --bs=4k --rw=randwrite --norandommap
same --offset=1k --size=64k --bs=4k --rw=randwrite --io_size=64k
same --offset=1k --size=64k --bs=4k --rw=randwrite --number_ios=8
same --rw=write:1k --size=64k --bs=4k
same --bssplit=4k/50:6k/50 --rw=write --size=256k
same --bsrange=1k-16k --bs_unaligned=1 --rw=write --size=256k
# bytes read = bytes written for the unaligned sizes
rm -f "$f"
run --name=j --filename="$f" --ioengine=psync --verify=crc32c --verify_state_save=0 \
  --bsrange=1k-16k --bs_unaligned=1 --rw=write --size=256k
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"] == doc["jobs"][0]["write"]["io_bytes"]')" = True ] ||
  fail "bs_unaligned: read bytes differ from written"
# size=10000 on an existing 1 MiB file: 3 writes, the last one past the grid.
truncate -s 1M "$f"
run --name=j --filename="$f" --ioengine=psync --verify=crc32c --verify_state_save=0 \
  --size=10000 --bs=4k --rw=write
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 3 ] || fail "size=10000: verify reads"
# blockalign=1k norandommap: 16 writes, overlapped ones are not read (fio: 9).
c=$(counts --size=64k --bs=4k --rw=randwrite --blockalign=1k --norandommap) || exit 1
read -r err w r <<<"$c"
[ "$err" = 0 ] && [ "$w" = 16 ] && [ "$r" -gt 0 ] && [ "$r" -lt 16 ] || fail "blockalign norandommap: $c"
echo "ok: off-grid writes are read back"

# 2.
rm -f "$f" local-j-0-verify.state
job=(--name=j --filename="$f" --size=64k --offset=1k --bs=4k --rw=write --verify=crc32c)
run "${job[@]}"
[ "$rc" -eq 0 ] || fail "state write run: exit $rc"
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "state verify_only on good data: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 16 ] || fail "state verify_only: reads"
printf '\xff\xff' | dd of="$f" bs=1 seek=20000 conv=notrunc status=none
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "state verify_only on a flipped byte: exit $rc, want 1"
grep -q "at offset 17408, length 4096: .*first differing byte at file offset 20000" err.txt ||
  fail "state verify_only: the bad block is not named"
# The same with bssplit sizes (off-grid chunks in the state file).
rm -f "$f" local-j-0-verify.state
job=(--name=j --filename="$f" --size=256k --bssplit=4k/50:6k/50 --rw=write --verify=crc32c)
run "${job[@]}"
[ "$rc" -eq 0 ] || fail "bssplit state write run: exit $rc"
written=$(jget 'doc["jobs"][0]["write"]["io_bytes"]')
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "bssplit state verify_only: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = "$written" ] ||
  fail "bssplit state verify_only: not every byte read"
echo "ok: verify_state_load checks off-grid writes"

# 3.
for a in "--blockalign=1k" "--random_distribution=zipf:1.2" "--blockalign=1k --iodepth=8 --ioengine=io_uring"; do
  if [[ $a == *io_uring* ]] && ! engine_ok io_uring; then continue; fi
  rm -f "$f"
  # shellcheck disable=SC2086
  run --name=j --filename="$f" --ioengine=psync --verify=crc32c --verify_state_save=0 \
    --size=256k --bs=4k --rw=randwrite $a
  [ "$rc" -eq 0 ] || fail "$a: exit $rc"
  [ "$(jget 'doc["jobs"][0]["error"]')" = 0 ] || fail "$a: error"
  r=$(jget 'doc["jobs"][0]["read"]["total_ios"]')
  [ "$r" -gt 0 ] && [ "$r" -lt 64 ] || fail "$a: $r verify reads, want fewer than the 64 writes"
  # verify_only replays the plan into a record: the same reads (at depth 8
  # the write run skips blocks whose writes overlapped in flight), no failure.
  run --name=j --filename="$f" --ioengine=psync --verify=crc32c --verify_state_save=0 \
    --size=256k --bs=4k --rw=randwrite $a --verify_only=1
  [ "$rc" -eq 0 ] || fail "$a verify_only: exit $rc"
  vr=$(jget 'doc["jobs"][0]["read"]["total_ios"]')
  [ "$vr" = "$r" ] || { [[ $a == *iodepth* ]] && [ "$vr" -ge "$r" ]; } || fail "$a verify_only: reads $vr, want $r"
done
echo "ok: random jobs without a map verify clean"

# 4.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && engine_ok io_uring; then
  truncate -s 2M "$tmp/loop.img"
  if loop=$(losetup -f --show "$tmp/loop.img" 2>/dev/null); then
    run --name=j --filename="$loop" --size=1m --offset=512 --bs=4k --rw=write \
      --ioengine=io_uring --iodepth=8 --direct=1 --verify=crc32c --verify_state_save=0
    losetup -d "$loop"
    [ "$rc" -eq 0 ] || fail "loop device: exit $rc"
    [ "$(jget '"%d %d" % (doc["jobs"][0]["write"]["total_ios"], doc["jobs"][0]["read"]["total_ios"])')" = "256 256" ] ||
      fail "loop device: writes/reads"
    echo "ok: loop device, direct, offset=512"
  fi
fi

echo ok
