#!/bin/bash
# A verify_only job is a reader (docs/verify.md): it opens its target
# O_RDONLY, and --readonly runs it. docs/verify.md said, under "Not done",
# that it opened the target read-write and was treated as a writer.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

run --name=w --filename=vo --size=64k --rw=write --verify=crc32c
[ "$rc" -eq 0 ] || fail "write: exit $rc"
run --readonly --name=w --filename=vo --size=64k --rw=write --verify=crc32c --verify_only=1
[ "$rc" -eq 0 ] || fail "verify_only under --readonly: exit $rc: $(cat err.txt)"
echo "ok: --readonly runs a verify_only job"
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
