#!/usr/bin/env bash
# An engine's refusal of a flag option names the flag and where the job set
# the option in one bracket: "nowait=1 (RWF_NOWAIT, <cmdline>) is not
# supported", "uncached=1 (RWF_DONTCACHE, t.fio:4)"; it used to print two
# groups back to back, "nowait=1 (<cmdline>) (RWF_NOWAIT)". On tmpfs
# (/dev/shm), which refuses both flags. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || { echo "SKIP: /dev/shm is not tmpfs"; exit 77; }
head -c 64k /dev/zero >f

refusal() {  # WANT ARGS...: exit 2 and WANT in stderr
  local want=$1
  shift
  "$bin" --output-format=terse "$@" >/dev/null 2>err
  local rc=$?
  [ $rc -eq 2 ] || { fail "$*: exit $rc, want 2: $(cat err)"; return; }
  if grep -qF -- "$want" err; then echo "ok   $want"; else fail "$*: want '$want' in: $(cat err)"; fi
  grep -qF -- ") (RWF_" err && fail "$*: two bracketed groups: $(cat err)"
}
for e in pvsync2 io_uring; do
  "$bin" --list-engines 2>/dev/null | grep -qw "$e" || continue
  refusal "$e: nowait=1 (RWF_NOWAIT, <cmdline>) is not supported for $tmp/f on tmpfs" \
    --name=n --ioengine=$e --nowait=1 --filename="$tmp/f" --size=64k
  refusal "$e: uncached=1 (RWF_DONTCACHE, <cmdline>) is not supported for $tmp/f on tmpfs" \
    --name=u --ioengine=$e --uncached=1 --filename="$tmp/f" --size=64k
done
printf '[u]\nioengine=pvsync2\nfilename=%s\nsize=64k\nuncached=1\n' "$tmp/f" >t.fio
refusal "pvsync2: uncached=1 (RWF_DONTCACHE, t.fio:5) is not supported" t.fio
[ "$fails" -eq 0 ]
