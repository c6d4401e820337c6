#!/bin/bash
# verify_state_load takes the writer's seed from the state: the check after
# a reboot works whatever randrepeat/randseed and the job's place in the run
# make the checking job's own seed. iobench refused the state unless both
# matched ("saved with another seed (randseed/randrepeat differ)", exit 2):
# randrepeat=0 in both runs (a new seed each run), or a writer that was the
# second job of a job file with randseed=5 checked by a standalone job with
# randseed=5. fio 3.33: exit 0, 64 blocks checked.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

reads() { jget 'doc["jobs"][0]["read"]["total_ios"]'; }

# randrepeat=0: each run draws its own seed. Sequential, and random with a
# map stopped early by io_size (the replay must be the writer's order to
# read back just its 32 blocks).
for rw in write randwrite; do
  rm -f vf local-*
  J=(--name=w --filename=vf --size=256k --bs=4k --rw=$rw --verify=crc32c --randrepeat=0)
  run "${J[@]}" --do_verify=0 --io_size=128k
  [ "$rc" -eq 0 ] || fail "$rw write: exit $rc"
  run "${J[@]}" --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 0 ] || fail "$rw randrepeat=0 verify_state_load: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 32 ] || fail "$rw randrepeat=0 verify_state_load: $(reads) reads, want 32"
  jget 'doc["jobs"][0]["read"]["io_bytes"]' | grep -qx 131072 || fail "$rw: read bytes"
  echo "ok: $rw, randrepeat=0 in both runs"
done

# A bsrange writer: its sizes were drawn from its seed.
rm -f vf local-*
J=(--name=w --filename=vf --size=256k --bsrange=4k-16k --rw=write --verify=crc32c --randrepeat=0)
run "${J[@]}" --do_verify=0
[ "$rc" -eq 0 ] || fail "bsrange write: exit $rc"
run "${J[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "bsrange verify_state_load: exit $rc: $(head -c 600 err.txt)"
jget 'doc["jobs"][0]["read"]["io_bytes"]' | grep -qx 262144 || fail "bsrange: read bytes"
echo "ok: bsrange, randrepeat=0"

# The writer is the second job of a job file (its seed mixes in its place in
# the run); the check is a standalone job with the same randseed.
rm -f vf vp local-*
cat >two.fio <<'EOF'
[global]
size=256k
bs=4k
randseed=5
[prep]
filename=vp
rw=write
[w]
filename=vf
rw=randwrite
verify=crc32c
do_verify=0
EOF
"$bin" two.fio --output-format=json >out.json 2>err.txt
rc=$?
[ "$rc" -eq 0 ] || fail "job file writer: exit $rc"
# Its state is numbered by its place in the run, as fio's: local-w-1; the
# standalone job (place 0) reads local-w-0.
mv local-w-1-verify.state local-w-0-verify.state || fail "no local-w-1-verify.state: $(ls)"
run --name=w --filename=vf --size=256k --bs=4k --rw=randwrite --verify=crc32c --randseed=5 \
  --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "standalone check of the second job's state: exit $rc: $(head -c 600 err.txt)"
[ "$(reads)" = 64 ] || fail "standalone check of the second job's state: $(reads) reads, want 64"
echo "ok: second job of a job file checked alone"

# The seed is the state's, so damage and a block left by another seed are
# still found: a flipped byte, then a block from a run with another seed.
flip vf 5000
run --name=w --filename=vf --size=256k --bs=4k --rw=randwrite --verify=crc32c \
  --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "flipped byte: exit $rc, want 1"
grep -q "first differing byte at file offset 5000" err.txt || fail "flipped byte: $(head -c 600 err.txt)"
cp vf vf.keep
cp local-w-0-verify.state state.keep
run --name=w --filename=vf --size=256k --bs=4k --rw=write --verify=crc32c --randseed=6 --do_verify=0
dd if=vf of=vf.keep bs=4k skip=4 seek=4 count=1 conv=notrunc 2>/dev/null
mv vf.keep vf
mv state.keep local-w-0-verify.state
run --name=w --filename=vf --size=256k --bs=4k --rw=write --verify=crc32c \
  --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "another seed's block: exit $rc, want 1"
grep -q "misplaced block at offset 16384" err.txt || fail "another seed's block: $(head -c 600 err.txt)"
echo "ok: damage and another seed's block found"
[ "$fails" -eq 0 ]
