#!/bin/bash
# Every verify= type, verify_interval, verify_offset, verify_pattern, several
# files, and a read-only job checking what an earlier job wrote, on tmpfs
# (psync). $1: iobench binary, $2: source dir.
VERIFY_FS=/dev/shm
[ -d /dev/shm ] && [ -w /dev/shm ] || VERIFY_FS=/var/tmp
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
base=(--name=t --filename="$f" --size=256k --bs=8k --verify_state_save=0)
for type in crc32c crc32c-intel crc32 crc64 crc16 crc7 xxhash md5 sha1 sha256 sha512 sha3-224 \
  sha3-256 sha3-384 sha3-512 meta null; do
  run "${base[@]}" --rw=randwrite --verify=$type
  [ "$rc" -eq 0 ] || fail "verify=$type: exit $rc"
  [ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 262144 ] || fail "verify=$type: reads"
done
echo "ok: every checksum type"

run "${base[@]}" --rw=write --verify=pattern --verify_pattern=0xfeedface
[ "$rc" -eq 0 ] || fail "verify=pattern: exit $rc"
python3 -c "
d = open('$f', 'rb').read()
assert d == bytes.fromhex('feedface') * (len(d) // 4), 'file is not the pattern'" ||
  fail "verify=pattern did not write the pattern"
run "${base[@]}" --rw=randwrite --verify=sha1 --verify_interval=1k --verify_offset=256 \
  --verify_pattern=0x5a
[ "$rc" -eq 0 ] || fail "verify_interval/verify_offset/verify_pattern: exit $rc"
# The header sits 256 bytes into each 1 KiB chunk: its magic is there.
python3 -c "
import struct
d = open('$f', 'rb').read()
for c in range(0, len(d), 1024):
    assert struct.unpack_from('<I', d, c + 256)[0] == 0x56424f49, c
    assert d[c:c + 256] == b'\x5a' * 256, c" || fail "header not at verify_offset"
echo "ok: verify_pattern, verify_interval, verify_offset"

# Several files: each verified.
run --name=m --directory="$tmp" --nrfiles=3 --size=384k --bs=4k --rw=randwrite --verify=crc64 \
  --verify_state_save=0
[ "$rc" -eq 0 ] || fail "nrfiles=3: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 393216 ] || fail "nrfiles=3: reads"
echo "ok: several files"

# A read-only job with verify= checks what the write job of the same name wrote.
run "${base[@]}" --rw=write --verify=crc32c
[ "$rc" -eq 0 ] || fail "write for the read job: exit $rc"
run "${base[@]}" --rw=randread --verify=crc32c
[ "$rc" -eq 0 ] || fail "read job on good data: exit $rc"
flip "$f" $((5 * 8192 + 4000))
run "${base[@]}" --rw=randread --verify=crc32c
[ "$rc" -eq 1 ] || fail "read job on a flipped byte: exit $rc, want 1"
grep -q "at offset 40960, length 8192" err.txt || fail "read job: wrong offset"
# Sequential verify_only with a loaded state reads what the state records.
seq=(--name=s --filename="$f" --size=256k --bs=8k --rw=write --verify=crc32c)
run "${seq[@]}"
[ "$rc" -eq 0 ] && [ -s local-s-0-verify.state ] || fail "sequential write with state: exit $rc"
run "${seq[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "sequential verify_only: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 262144 ] || fail "sequential verify_only reads"
flip "$f" $((31 * 8192 + 500))
run "${seq[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "sequential verify_only, flipped byte: exit $rc"
grep -q "at offset 253952, length 8192" err.txt || fail "sequential verify_only: wrong offset"
# verify_only replays the random plan only as far as the writer went: with
# io_size=128k it wrote 16 of the 32 blocks; the others hold layout data
# (fio 3.33 reads 16 back; iobench replayed the whole pass and failed).
rnd=(--name=r --filename="$f" --size=256k --io_size=128k --bs=8k --rw=randwrite --verify=crc32c
  --verify_state_save=0)
run "${rnd[@]}" --do_verify=0
[ "$rc" -eq 0 ] || fail "randwrite io_size=128k: exit $rc"
run "${rnd[@]}" --verify_only=1
[ "$rc" -eq 0 ] || fail "verify_only after io_size=128k: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 131072 ] || fail "verify_only io_size reads"
# Without a random map the plan writes some blocks twice: verify_only reads
# each distinct block once (fio 3.33), the count do_verify reads, through
# all of io_size (past the end of the pattern's pass).
nrm=(--name=n --filename="$f" --size=256k --io_size=384k --bs=8k --rw=randwrite --norandommap
  --verify=crc32c --verify_state_save=0)
run "${nrm[@]}"
[ "$rc" -eq 0 ] || fail "norandommap write+verify: exit $rc"
[ "$(jget 'doc["jobs"][0]["write"]["io_bytes"]')" = 393216 ] || fail "norandommap writes"
want=$(jget 'doc["jobs"][0]["read"]["total_ios"]')
run "${nrm[@]}" --verify_only=1
[ "$rc" -eq 0 ] || fail "norandommap verify_only: exit $rc"
[ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = "$want" ] ||
  fail "norandommap verify_only reads $(jget 'doc["jobs"][0]["read"]["total_ios"]'), want $want"
echo "all ok"
