#!/bin/bash
# A verify_only job is a reader (docs/verify.md): it opens its target
# O_RDONLY, and --readonly runs it. docs/verify.md said, under "Not done",
# that it opened the target read-write and was treated as a writer. It lays
# out nothing: a short or missing file is refused before any I/O.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

run --name=w --filename=vo --size=64k --rw=write --verify=crc32c
[ "$rc" -eq 0 ] || fail "write: exit $rc"
run --readonly --name=w --filename=vo --size=64k --rw=write --verify=crc32c --verify_only=1
[ "$rc" -eq 0 ] || fail "verify_only under --readonly: exit $rc: $(cat err.txt)"
echo "ok: --readonly runs a verify_only job"
# It lays out nothing: a short file (a truncated copy of what was written)
# is refused before any I/O and stays as it was (it was padded to 64 KiB
# with zeros, destroying the evidence); a missing one is not created. A
# loaded state runs as before.
head -c 16384 vo >short
run --name=w --filename=short --size=64k --rw=write --verify=crc32c --verify_only=1
[ "$rc" -eq 2 ] || fail "verify_only on a short file: exit $rc, want 2"
grep -qF "iobench: job 'w': verify_only=1 (<cmdline>): short is 16384 bytes and the job's region ends at byte 65536, from size=64k at <cmdline>: verify_only lays out nothing" err.txt ||
  fail "short file: message $(cat err.txt)"
[ "$(stat -c %s short)" = 16384 ] || fail "the short file was extended to $(stat -c %s short)"
cmp -s short <(head -c 16384 vo) || fail "the short file's data changed"
run --name=w --filename=missing --size=64k --rw=write --verify=crc32c --verify_only=1
[ "$rc" -eq 2 ] || fail "verify_only on a missing file: exit $rc, want 2"
grep -qF "missing does not exist (the job's region ends at byte 65536" err.txt ||
  fail "missing file: message $(cat err.txt)"
[ ! -e missing ] || fail "verify_only created its missing file"
run --name=w --filename=vo --size=64k --rw=write --verify=crc32c --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "verify_only with verify_state_load: exit $rc"
# A writer earlier in the same phase lays the file out for it.
run --name=w --filename=fresh --size=64k --rw=write --verify=crc32c \
  --name=v --wait_for=w --filename=fresh --size=64k --rw=write --verify=crc32c --verify_only=1
[ "$rc" -eq 0 ] || fail "a writer and a verify_only job of one phase: exit $rc"
echo "ok: verify_only refuses a short or missing file and lays out nothing"
if ! command -v strace >/dev/null || ! strace -o /dev/null true 2>/dev/null; then
  echo "skip: strace is not usable here"
  exit 77
fi
# LeakSanitizer cannot run under ptrace (an ASan build exits 1 at the end).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  strace -f -e trace=open,openat -o trace.txt "$bin" --name=w --filename=vo --size=64k --rw=write \
  --verify=crc32c --verify_only=1 --ioengine=psync >/dev/null 2>&1 || fail "verify_only: failed"
opens=$(grep -E '"vo"' trace.txt)
[ -n "$opens" ] || fail "no open of the target in the trace"
grep -E '"vo"' trace.txt | grep -qE 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC' &&
  fail "verify_only opened its target for writing: $opens"
echo "ok: the target is opened O_RDONLY: $(echo "$opens" | head -1)"
[ "$fails" -eq 0 ]
