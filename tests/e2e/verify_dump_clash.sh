#!/bin/bash
# verify_dump names its files <basename>.<offset>.received/.expected, as fio
# does; two files with the same base name (d1/x, d2/x) failing at the same
# offset used to write the same two names, the second pair replacing the
# first silently. The second pair is now x.4096-2.*, each failure's stderr
# line says where its blocks went, and a dump left by an earlier run is
# still replaced under fio's name.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

mkdir d1 d2 dumps
job=(--name=j --filename="$tmp/d1/x:$tmp/d2/x" --size=128k --bs=4k --rw=write --verify=crc32c)
run "${job[@]}" --verify_state_save=0
[ "$rc" -eq 0 ] || fail "write: exit $rc"
flip d1/x 5000
flip d2/x 5000
cd dumps
echo stale >x.4096.received
run "${job[@]}" --verify_only=1 --verify_dump=1
[ "$rc" -eq 1 ] || fail "verify: exit $rc, want 1"
[ "$(ls | sort | tr '\n' ' ')" = "err.txt out.json x.4096-2.expected x.4096-2.received x.4096.expected x.4096.received " ] ||
  fail "dump files: $(ls | tr '\n' ' ')"
for d in d1 d2; do
  [ "$d" = d1 ] && s=x.4096 || s=x.4096-2
  grep -q "^iobench: job 'j': verify: $tmp/$d/x: bad data block at offset 4096, .*; verify_dump: written to ./$s.received and ./$s.expected\$" err.txt ||
    fail "$d's failure does not name $s.*: $(cat err.txt)"
  cmp -s "$s.received" <(dd if="../$d/x" bs=4k skip=1 count=1 2>/dev/null) ||
    fail "$s.received is not $d/x's block"
  cmp -s "$s.received" "$s.expected" && fail "$s: received and expected are equal"
done
echo "ok: two files named x: two dumps, each named on stderr"
