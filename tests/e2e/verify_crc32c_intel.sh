#!/bin/bash
# crc32c-intel is fio's other name for crc32c: one checksum, so data and a
# verify state written with either spelling are checked by the other (fio
# 3.33: exit 0). iobench recorded them as two types and failed every block
# ("written with verify=crc32c-intel, this job checks verify=crc32c") and
# refused the state ("saved for verify=crc32c-intel, this job uses ...").
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

reads() { jget 'doc["jobs"][0]["read"]["total_ios"]'; }
J=(--name=w --filename=vf --size=64k --bs=4k --rw=write)

for pair in "crc32c-intel crc32c" "crc32c crc32c-intel"; do
  set -- $pair
  w=$1 c=$2
  rm -f vf local-*
  run "${J[@]}" --verify=$w --do_verify=0
  [ "$rc" -eq 0 ] || fail "$w write: exit $rc"
  run "${J[@]}" --verify=$c --verify_only=1
  [ "$rc" -eq 0 ] || fail "$c verify_only of $w data: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 16 ] || fail "$c verify_only of $w data: $(reads) reads, want 16"
  run "${J[@]}" --verify=$c --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 0 ] || fail "$c verify_state_load of a $w state: exit $rc: $(head -c 600 err.txt)"
  [ "$(reads)" = 16 ] || fail "$c verify_state_load of a $w state: $(reads) reads, want 16"
  run --name=r --filename=vf --size=64k --bs=4k --rw=read --verify=$c
  [ "$rc" -eq 0 ] || fail "$c read of $w data: exit $rc: $(head -c 600 err.txt)"
  echo "ok: verify=$c checks verify=$w data and state"
done

# Still one checksum among others: crc32 refuses crc32c-intel's blocks.
run "${J[@]}" --verify=crc32 --verify_only=1
[ "$rc" -eq 1 ] || fail "crc32 verify_only of crc32c-intel data: exit $rc, want 1"
grep -q "written with verify=crc32c, this job checks verify=crc32" err.txt ||
  fail "crc32 of crc32c data: $(head -c 600 err.txt)"
# A flipped byte is still found with the other spelling.
flip vf 5000
run "${J[@]}" --verify=crc32c-intel --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "flipped byte: exit $rc, want 1"
grep -q "first differing byte at file offset 5000" err.txt || fail "flipped byte: $(head -c 600 err.txt)"
echo "ok: other types refused, damage found"
[ "$fails" -eq 0 ]
