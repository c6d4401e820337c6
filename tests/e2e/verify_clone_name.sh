#!/bin/bash
# With numjobs, a verify failure on stderr names the clone whose block
# failed ("job 'w' #1"), as the end-of-run error lines do; it said "job 'w'"
# for every clone. A job of one clone keeps "job 'w'".
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

J=(--name=w --filename=f --size=64k --bs=4k --rw=write --verify=crc32c)
run "${J[@]}" --numjobs=2 --offset_increment=64k --do_verify=0
[ "$rc" -eq 0 ] || fail "write: exit $rc"
flip f 70000  # clone 1's region (64k..128k)
run "${J[@]}" --numjobs=2 --offset_increment=64k --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "numjobs=2: exit $rc, want 1"
grep -q "^iobench: job 'w' #1: verify: f: bad data block at offset 69632" err.txt ||
  fail "numjobs=2: the failure does not name clone #1"
grep -q "job 'w' #0" err.txt && fail "numjobs=2: clone #0 named"
rm -f f local-w-*-verify.state
run "${J[@]}" --do_verify=0
flip f 5000
run "${J[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "numjobs=1: exit $rc, want 1"
grep -q "^iobench: job 'w': verify: f: bad data block at offset 4096" err.txt ||
  fail "numjobs=1: the failure's job is not 'w'"
echo "ok: verify failures name the clone"
