#!/bin/bash
# verify_dump when the expected block cannot be rebuilt (a zeroed block read
# by a job that did not write it): the .received file is written and stderr
# says once, prefixed with the job, that .expected was not ("verify_dump: "
# used to appear twice: the worker added it to a message that had it); the
# failure's own line names the .received file.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

f=data
run --name=w --filename=$f --rw=write --verify=md5 --size=64k --bs=4k --verify_state_save=0
[ "$rc" -eq 0 ] || fail "write: exit $rc"
dd if=/dev/zero of=$f bs=4k seek=1 count=1 conv=notrunc 2>/dev/null
run --name=rd --filename=$f --rw=read --verify=md5 --size=64k --bs=4k --verify_dump=1
[ "$rc" -eq 1 ] || fail "read of a zeroed block: exit $rc"
want="iobench: job 'rd': verify_dump: ./$f.4096.expected not written: the expected contents are unknown (header corrupt and generation not tracked)"
[ "$(grep -c 'not written' err.txt)" -eq 1 ] || fail "not written lines: $(grep -c 'not written' err.txt), want 1"
grep -qxF "$want" err.txt || fail "verify_dump line: $(grep verify_dump err.txt)"
# The failure's line names what was dumped (fio: "received data dumped as ...").
grep -q "^iobench: job 'rd': verify: .*; verify_dump: written to ./$f.4096.received\$" err.txt ||
  fail "the failure does not name its dump: $(cat err.txt)"
[ -s "$f.4096.received" ] || fail "no $f.4096.received"
[ -e "$f.4096.expected" ] && fail "$f.4096.expected written"
echo "ok: verify_dump message once"
