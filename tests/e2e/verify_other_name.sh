#!/bin/bash
# fio's t/verify.py checksum tests (VerifyCSUMTest) in one run of stonewalled
# jobs on one file, each with its own --name: layout writes, success_only
# (verify_only) and success_read (rw=read) pass, mangle overwrites some bytes
# with random data, failure_only and failure_read fail with EILSEQ (84). As
# fio 3.33: the job name is not checked (the header's job-name hash made
# success_only fail with "written by another job, clone or seed"), and a
# later job's other seed is accepted by a job that only writes or only reads.
# Misplacement (another offset's block) is still found under another name,
# and a verify_only job that also reads still compares the seed (fio's
# rand_seed).
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

f=verify
for eng in psync libaio; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  extra=(--filesize=1M --bs=4096 --verify_fatal=1)
  [ $eng = libaio ] && extra+=(--direct=1 --iodepth=16)
  base=(--fallocate=truncate --filename=$f --stonewall --ioengine=$eng)
  for rw in write randwrite; do
    rrw=read
    [ $rw = randwrite ] && rrw=randread
    for csum in md5 crc32c; do
      for mbs in 4096 4; do
        rm -f $f
        vo=(--verify_only --rw=$rw --verify=$csum "${base[@]}" "${extra[@]}")
        vr=(--rw=$rrw --verify=$csum "${base[@]}" "${extra[@]}")
        run --name=layout --rw=$rw --verify=$csum "${base[@]}" "${extra[@]}" \
          --name=success_only "${vo[@]}" --name=success_read "${vr[@]}" \
          --name=mangle --rw=randwrite --randrepeat=0 --bs=$mbs --number_ios=1 "${base[@]}" \
          --filesize=1M \
          --name=failure_only "${vo[@]}" --name=failure_read "${vr[@]}"
        got=$(jget '" ".join("%s=%s" % (j["jobname"], j["error"]) for j in doc["jobs"])')
        want="layout=0 success_only=0 success_read=0 mangle=0 failure_only=84 failure_read=84"
        [ "$got" = "$want" ] || fail "$eng $rw $csum mangle_bs=$mbs: $got, want $want"
        grep -q "written by another job" err.txt && fail "$eng $rw $csum: another job's blocks"
        echo "ok: $eng rw=$rw verify=$csum mangle_bs=$mbs"
      done
    done
  done
done

# The brief's case, as separate runs: verify_only under another name exits 0.
job=(--filename=$f --rw=write --verify=md5 --filesize=1M --bs=4k)
rm -f $f
run --name=layout "${job[@]}"
[ "$rc" -eq 0 ] || fail "layout: exit $rc"
run --name=check "${job[@]}" --verify_only
[ "$rc" -eq 0 ] || fail "verify_only under another name: exit $rc"
[ "$(jget 'doc["jobs"][0]["error"]')" = 0 ] || fail "verify_only under another name: error"
grep -q "256 verified, 0 skipped, 0 failed" out.json || fail "verify_only: not 256 blocks verified"
echo "ok: verify_only under another name"

# A verify_only job that reads and writes compares the seed, as fio's
# rand_seed check: the same seed passes under another name, another fails.
mixed=(--filename=$f --rw=randrw --verify=md5 --filesize=1M --bs=4k --randseed=5)
rm -f $f
run --name=layout "${mixed[@]}"
[ "$rc" -eq 0 ] || fail "randrw layout: exit $rc"
run --name=check "${mixed[@]}" --verify_only
[ "$rc" -eq 0 ] || fail "randrw verify_only, same seed, another name: exit $rc"
run --name=check "${mixed[@]}" --verify_only --randseed=6
[ "$rc" -eq 1 ] || fail "randrw verify_only, another seed: exit $rc"
grep -q "misplaced block at offset [0-9]*, length 4096: written by another job, clone or seed" \
  err.txt || fail "randrw verify_only, another seed: message"
echo "ok: randrw verify_only compares the seed"

# Block 1 copied over block 0: misplaced, under another name too.
rm -f $f
run --name=layout "${job[@]}"
dd if=$f of=$f bs=4k skip=1 seek=0 count=1 conv=notrunc 2>/dev/null
run --name=check "${job[@]}" --verify_only
[ "$rc" -eq 1 ] || fail "misplaced, verify_only: exit $rc"
grep -q "misplaced block at offset 0, length 4096: header is for file 0 offset 4096" err.txt ||
  fail "misplaced, verify_only: message"
run --name=rd --filename=$f --rw=read --verify=md5 --filesize=1M --bs=4k
[ "$rc" -eq 1 ] || fail "misplaced, read: exit $rc"
grep -q "misplaced block at offset 0, length 4096: header is for file 0 offset 4096" err.txt ||
  fail "misplaced, read: message"
echo "ok: misplaced block found under another name"
