#!/bin/bash
# Write + verify passes on each engine: psync and pvsync2 on tmpfs (/dev/shm)
# and ext4 (/var/tmp), libaio and io_uring with direct=1 on ext4; the verify
# reads are counted as reads (fio does too) and every block is checked.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

size=$((1024 * 1024))
bs=4096
check() {  # check LABEL: exit 0, all blocks written, read back and verified
  [ "$rc" -eq 0 ] || fail "$1: exit $rc"
  [ "$(jget 'doc["jobs"][0]["error"]')" = 0 ] || fail "$1: job error"
  [ "$(jget 'doc["jobs"][0]["write"]["io_bytes"]')" = "$size" ] || fail "$1: write bytes"
  [ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = "$size" ] || fail "$1: verify read bytes"
  [ -s err.txt ] && fail "$1: unexpected stderr"
  echo "ok: $1"
}
ran=0
for eng in psync pvsync2; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  for dir in /dev/shm "$tmp"; do
    [ -d "$dir" ] && [ -w "$dir" ] || continue
    f="$dir/iobench_verify_$$.$eng"
    for rw in write randwrite; do
      run --name=v --ioengine=$eng --filename="$f" --size=$size --bs=$bs --rw=$rw \
        --verify=crc32c --verify_state_save=0
      check "$eng $rw on $dir"
      ran=$((ran + 1))
    done
    rm -f "$f"
  done
done
for eng in libaio io_uring; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  f="$tmp/data.$eng"
  for rw in write randwrite; do
    run --name=v --ioengine=$eng --filename="$f" --size=$size --bs=$bs --rw=$rw --direct=1 \
      --iodepth=16 --verify=sha256 --verify_state_save=0
    check "$eng direct=1 $rw"
    ran=$((ran + 1))
  done
done
[ "$ran" -gt 0 ] || { echo "skip: no engine usable"; exit 77; }
# A mixed job on a file that create_on_open starts empty (fio's
# examples/enospc-pressure.fio): reads past the end find nothing. A random
# pass goes on (the report counts those reads), a sequential one ends there;
# either way the verify phase reads back exactly what was written (it used
# to replay the whole pass's plan and fail on blocks never written).
for eng in psync libaio; do
  engine_ok "$eng" || continue
  for rw in randrw rw; do
    rm -f "$tmp/coo.$eng"
    d=""
    [ "$eng" = libaio ] && d="--direct=1 --iodepth=16"
    run --name=v --ioengine=$eng --filename="$tmp/coo.$eng" --size=$size --bs=$bs --rw=$rw \
      --verify=crc32c --verify_state_save=0 --create_on_open=1 --fallocate=none $d
    [ "$rc" -eq 0 ] || fail "$eng $rw create_on_open: exit $rc"
    [ "$(jget 'doc["jobs"][0]["error"]')" = 0 ] || fail "$eng $rw create_on_open: job error"
    [ -s err.txt ] && fail "$eng $rw create_on_open: unexpected stderr"
    w=$(jget 'doc["jobs"][0]["write"]["total_ios"]')
    note=$(jget '[n for n in doc["jobs"][0]["iobench"]["notes"] if n.startswith("verify: ")][0]')
    case "$note" in
      "verify: $w blocks written, $w verified, 0 skipped, 0 failed"*) ;;
      *) fail "$eng $rw create_on_open: $w writes, note: $note" ;;
    esac
    if [ "$rw" = randrw ]; then
      # Half the pass is writes; the random reads past the end did not stop it.
      [ "$w" -gt $((size / bs / 4)) ] || fail "$eng randrw create_on_open: only $w writes"
      jget '[n for n in doc["jobs"][0]["iobench"]["notes"] if "found the end of the file" in n][0]' \
        >/dev/null 2>&1 || fail "$eng randrw create_on_open: no note on the reads past the end"
    fi
    echo "ok: $eng $rw create_on_open: $w writes verified"
  done
done
# fio's t0029: one job writes, a later read job with verify checks it. The
# reader is not the writer (another name, clone and seed): offsets, lengths
# and checksums are checked, not whose data it is (iobench used to call every
# block "misplaced: written by another job"). A flipped byte still fails.
printf '[global]\nfilename=%s\nsize=64k\nverify=md5\nverify_state_save=0\n[write]\nrw=write\ndo_verify=0\n[read]\nstonewall\nrw=read\nloops=2\n' \
  "$tmp/xj" >xj.fio
run xj.fio
[ "$rc" -eq 0 ] || fail "write job then read job with verify: exit $rc"
[ -s err.txt ] && fail "write job then read job: stderr"
[ "$(jget 'doc["jobs"][1]["read"]["io_bytes"]')" = 131072 ] || fail "read job: loops=2 reads 128 KiB"
echo "ok: a read job verifies another job's writes"
flip "$tmp/xj" 5000
run --section=read xj.fio
[ "$rc" -eq 1 ] || fail "flipped byte read by another job: exit $rc"
grep -q "md5 data checksum mismatch" err.txt || fail "flipped byte: $(cat err.txt)"
echo "ok: and finds a flipped byte"
# The verifier's note counts every block as verified.
"$bin" --name=v --filename="$tmp/n" --size=$size --bs=$bs --rw=randwrite --verify=crc32c \
  --verify_state_save=0 >out.txt 2>err.txt || fail "normal report run: exit $?"
grep -q "note: verify: 256 blocks written, 256 verified, 0 skipped, 0 failed" out.txt ||
  fail "normal report lacks the verify note: $(cat out.txt)"
echo "all ok"
