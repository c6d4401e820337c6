#!/bin/bash
# The files verify writes in the current directory besides the target (the
# state's temporary file local-<job>-<n>-verify.state.tmp, verify_dump's
# <file>.<offset>.received / .expected) are never written through a
# symbolic link planted at their name: `ln -s /dev/loop2
# local-w-0-verify.state.tmp` had the state written over the device, and a
# dump file linked to a device was written over it. A hard link at a dump
# name had the file it shares contents with overwritten. A link to a regular
# file elsewhere stands in for the device here: its bytes must be left as
# they were, and stderr must say why the file was not written.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

mkdir elsewhere
printf 'precious bytes\n' >elsewhere/victim
want=$(sha256sum <elsewhere/victim)
untouched() {  # NAME
  [ "$(sha256sum <elsewhere/victim)" = "$want" ] || fail "$1: the link's target was written"
}

# The state's temporary file is a link: the state is not saved, the target
# is untouched, the link is left (no write through it, no rename over it).
ln -s elsewhere/victim local-w-0-verify.state.tmp
run --name=w --filename=data --size=64k --bs=4k --rw=write --verify=crc32c
untouched "state .tmp link"
[ "$rc" -eq 0 ] || fail "write with a linked .tmp: exit $rc, want 0 (the data verified)"
grep -q "verify_state_save: refusing to write its temporary file to local-w-0-verify.state.tmp: it is a symbolic link to elsewhere/victim" err.txt ||
  fail "state .tmp link: stderr does not say why: $(cat err.txt)"
[ -L local-w-0-verify.state.tmp ] || fail "the .tmp link was replaced"
[ -e local-w-0-verify.state ] && fail "a state was saved although its .tmp was refused"
echo "ok: no state written through a linked .tmp"

# A stale regular .tmp (a crash between write and rename) is replaced.
rm local-w-0-verify.state.tmp
printf 'stale' >local-w-0-verify.state.tmp
run --name=w --filename=data --size=64k --bs=4k --rw=write --verify=crc32c
[ "$rc" -eq 0 ] || fail "write over a stale .tmp: exit $rc"
[ -s err.txt ] && fail "stale .tmp: stderr not empty: $(cat err.txt)"
[ "$(head -c 8 local-w-0-verify.state)" = IOBVSTAT ] || fail "no state saved over a stale .tmp"
[ -e local-w-0-verify.state.tmp ] && fail "the stale .tmp is left"
echo "ok: a stale regular .tmp is replaced"

# verify_dump: both dump files are links; a flipped byte is found, reported,
# and neither link's target is written. A dump name that is free is written.
flip data $((4096 + 200))
ln -s elsewhere/victim data.4096.received
ln -s elsewhere/victim data.4096.expected
run --name=w --filename=data --size=64k --bs=4k --rw=read --verify=crc32c --verify_dump=1
untouched "verify_dump links"
[ "$rc" -eq 1 ] || fail "read of a damaged block: exit $rc, want 1"
grep -q "iobench: job 'w': verify_dump: refusing to write the block as read to ./data.4096.received: it is a symbolic link to elsewhere/victim" err.txt ||
  fail "verify_dump link: stderr does not say why: $(cat err.txt)"
grep -q "block at offset 4096" err.txt || fail "the damaged block is not reported: $(cat err.txt)"
rm data.4096.received
run --name=w --filename=data --size=64k --bs=4k --rw=read --verify=crc32c --verify_dump=1
untouched "verify_dump .expected link"
[ -f data.4096.received ] && [ ! -L data.4096.received ] || fail "the free .received name was not written"
grep -q "verify_dump: refusing to write the expected block to ./data.4096.expected: it is a symbolic link" err.txt ||
  fail "verify_dump .expected link: stderr does not say why: $(cat err.txt)"
echo "ok: verify_dump never writes through a link"

# A FIFO at a dump name is refused at once (no wait for a reader).
rm -f data.4096.received data.4096.expected
mkfifo data.4096.received
timeout 30 "$bin" --name=w --filename=data --size=64k --bs=4k --rw=read --verify=crc32c \
  --verify_dump=1 >out.json 2>err.txt
grep -q "verify_dump: refusing to write the block as read to ./data.4096.received: it exists and is not a regular file" err.txt ||
  fail "verify_dump FIFO: $(cat err.txt)"
echo "ok: verify_dump refuses a FIFO"

# A hard link at a dump name: the dump replaces the name; the file it shared
# contents with keeps them (it used to be truncated and overwritten).
rm -f data.4096.received data.4096.expected
ln elsewhere/victim data.4096.received
run --name=w --filename=data --size=64k --bs=4k --rw=read --verify=crc32c --verify_dump=1
untouched "verify_dump hard link"
[ "$(stat -c %h elsewhere/victim)" -eq 1 ] || fail "verify_dump hard link: the link was kept"
[ "$(stat -c %s data.4096.received)" -eq 4096 ] || fail "verify_dump hard link: no dump written"
[ -s err.txt ] && grep -v "block at offset 4096\|verify: " err.txt | grep -q . &&
  fail "verify_dump hard link: stderr: $(cat err.txt)"
echo "ok: verify_dump replaces a hard link, its other name untouched"
[ "$fails" -eq 0 ]
