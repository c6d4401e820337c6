#!/bin/bash
# verify=meta checks only a block's header, so it reads back what another
# checksum type wrote, as fio 3.33 does (`--verify=md5 --do_verify=0`, then
# `--rw=read --verify=meta` or `--verify_only=1 --verify=meta`: 64 reads,
# exit 0; a flipped data byte passes there too, a block copied over another
# fails). iobench refused every block ("header version/type do not match").
# A checksum type still refuses another type's blocks.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

reads() { jget 'doc["jobs"][0]["read"]["total_ios"]'; }

for wtype in md5 crc32c sha256; do
  rm -f vf local-*
  run --name=w --filename=vf --size=256k --rw=write --verify=$wtype --do_verify=0
  [ "$rc" -eq 0 ] || fail "$wtype write: exit $rc"
  run --name=w --filename=vf --size=256k --rw=read --verify=meta
  [ "$rc" -eq 0 ] || fail "meta read of $wtype data: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 64 ] || fail "meta read of $wtype data: $(reads) reads, want 64"
  run --name=w --filename=vf --size=256k --rw=write --verify=meta --verify_only=1
  [ "$rc" -eq 0 ] || fail "meta verify_only of $wtype data: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 64 ] || fail "meta verify_only of $wtype data: $(reads) reads, want 64"
  # The state of the $wtype writer is the meta run's too.
  run --name=w --filename=vf --size=256k --rw=write --verify=meta --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 0 ] || fail "meta verify_state_load of a $wtype state: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 64 ] || fail "meta verify_state_load of a $wtype state: $(reads) reads, want 64"
  echo "ok: meta reads back $wtype data"
done

# A flipped data byte is not meta's to see (fio: exit 0); a header that is
# for another offset is, with the written type's block as the expected one.
flip vf $((4096 + 2000))
run --name=w --filename=vf --size=256k --rw=read --verify=meta
[ "$rc" -eq 0 ] || fail "meta, flipped data byte: exit $rc"
dd if=vf of=vf bs=4k skip=1 seek=2 count=1 conv=notrunc 2>/dev/null
run --name=w --filename=vf --size=256k --rw=read --verify=meta
[ "$rc" -eq 1 ] || fail "meta, copied block: exit $rc, want 1"
grep -q "misplaced block at offset 8192, length 4096: header is for file 0 offset 4096" err.txt ||
  fail "meta, copied block: $(head -c 600 err.txt)"
grep -q "expected header: magic=0x56424f49 version=1 type=sha256 length=4096 offset=8192" err.txt ||
  fail "meta, copied block: the expected header is not the sha256 one: $(head -c 900 err.txt)"
echo "ok: meta still finds a misplaced block"

# Another checksum type is still a mismatch, saying which types.
run --name=w --filename=vf --size=256k --rw=read --verify=md5 --verify_fatal=1
[ "$rc" -eq 1 ] || fail "md5 read of sha256 data: exit $rc, want 1"
grep -q "corrupted block at offset 0, length 4096: written with verify=sha256, this job checks verify=md5" err.txt ||
  fail "md5 read of sha256 data: $(head -c 600 err.txt)"
run --name=w --filename=vf --size=256k --rw=write --verify=md5 --verify_only=1 --verify_state_load=1
[ "$rc" -ne 0 ] || fail "md5 loading a sha256 state: exit 0"
grep -q "saved for verify=sha256, this job uses verify=md5" err.txt || fail "md5 state: $(cat err.txt)"
echo "ok: a checksum type refuses another's blocks"
[ "$fails" -eq 0 ]
