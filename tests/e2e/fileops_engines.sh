#!/bin/bash
# The falloc and ftruncate engines (fio's engines of those names), against
# fixed expected values and, when fio's side runs, fio 3.33 on the same job:
# exit code, the job's error, total_ios/io_bytes per direction, and the
# file's size and allocated 512-byte blocks (`stat -c '%s %b'`) afterwards.
#  - falloc: a read is fallocate(KEEP_SIZE), a write fallocate(0), a trim a
#    hole punch; each counts its length as bytes. A reading job's file is
#    laid out first (as for any engine) and keeps its size.
#  - ftruncate: a write truncates the file to the I/O's offset (the file
#    ends at the last offset; bs only moves it); a read or trim fails with
#    EINVAL at the first I/O (exit 1, one I/O counted, no bytes).
#  - verify and a character device are refused before the run (exit 2), and
#    falloc under --readonly.
# Both engines used to be refused as "a fio engine that iobench does not
# support yet". $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# run TOOL ARGS...: runs TOOL on file F (removed first unless KEEP=1) and
# prints "rc=N err=E r=IOS/BYTES w=IOS/BYTES t=IOS/BYTES size blocks", the
# blocks rounded down to 32 KiB (64 of them): ext4 may add a 4 KiB block of
# extent tree to a file the I/Os fragmented, in either tool.
run() {
  local t=$1 rc out
  shift
  [ "${KEEP:-0}" = 1 ] || rm -f F
  out=$("$(cmd "$t")" --thread --name=j --filename=F --bs=4k --output-format=json "$@" 2>err.txt)
  rc=$?
  printf 'rc=%s %s %s\n' "$rc" "$(python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print("err=%d" % j["error"], *("%s=%d/%d" % (d[0], j[d]["total_ios"], j[d]["io_bytes"])
                               for d in ("read", "write", "trim")))' <<<"$out" 2>/dev/null)" \
    "$(stat -c '%s %b' F 2>/dev/null | awk '{ print $1, int($2 / 64) * 64 }')"
}
F='--ioengine=falloc'
check "falloc write" "rc=0 err=0 r=0/0 w=16/65536 t=0/0 65536 128" $F --rw=write --size=64k
check "falloc randwrite bs=16k" "rc=0 err=0 r=0/0 w=4/65536 t=0/0 65536 128" $F --rw=randwrite \
  --bs=16k --size=64k
check "falloc read (laid out)" "rc=0 err=0 r=16/65536 w=0/0 t=0/0 65536 128" $F --rw=read --size=64k
check "falloc trim" "rc=0 err=0 r=0/0 w=0/0 t=16/65536 65536 0" $F --rw=trim --size=64k
check "falloc trimwrite" "rc=0 err=0 r=0/0 w=16/65536 t=16/65536 65536 128" $F --rw=trimwrite \
  --size=64k
check "falloc trim at offset=256k of a 1 MiB file" "rc=0 err=0 r=0/0 w=0/0 t=16/65536 1048576 1920" \
  $F --rw=trim --size=64k --offset=256k --filesize=1m --fallocate=posix
# A reading job on a sparse file big enough: no layout; its reads allocate
# the blocks (KEEP_SIZE) and the size stays. (The engine opens a reading
# job's file read-write for it, as fio's does: fallocate needs that.)
for t in $(tools); do
  rm -f F
  truncate -s 256k F
  expect_eq "$t falloc read on a sparse 256k file, size=64k" \
    "$(KEEP=1 run "$t" $F --rw=read --size=64k)" \
    "rc=0 err=0 r=16/65536 w=0/0 t=0/0 262144 128"
done

T='--ioengine=ftruncate'
check "ftruncate write" "rc=0 err=0 r=0/0 w=16/65536 t=0/0 61440 0" $T --rw=write --size=64k
check "ftruncate write bs=16k" "rc=0 err=0 r=0/0 w=4/65536 t=0/0 49152 0" $T --rw=write \
  --bs=16k --size=64k
# The layout allocated [0, 160k); the first truncate (to 128k) kept 128k of it.
check "ftruncate write offset=128k" "rc=0 err=0 r=0/0 w=8/32768 t=0/0 159744 256" $T --rw=write \
  --size=32k --offset=128k
# The order of random offsets is not fio's (any engine): counts only.
for t in $(tools); do
  expect_eq "$t ftruncate randwrite" "$(run "$t" $T --rw=randwrite --size=64k | cut -d' ' -f1-5)" \
    "rc=0 err=0 r=0/0 w=16/65536 t=0/0"
done
# Reads and trims fail with EINVAL at the first I/O; the file was laid out.
check "ftruncate read" "rc=1 err=22 r=1/0 w=0/0 t=0/0 65536 128" $T --rw=read --size=64k
check "ftruncate trim" "rc=1 err=22 r=0/0 w=0/0 t=1/0 65536 128" $T --rw=trim --size=64k
grep -q "err=22 (read F offset=0 length=4096: Invalid argument)" <(run iob $T --rw=read \
  --size=64k >/dev/null; cat err.txt) || fail "ftruncate read: the error names the read: $(cat err.txt)"

# Refused before the run (iobench only).
for e in falloc ftruncate; do
  "$bin" --name=j --filename=F --ioengine=$e --rw=write --size=64k --verify=crc32c \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$e verify: exit" "$?" 2
  grep -q "$e: verify=crc32c (<cmdline>): the $e engine moves no data" err.txt ||
    fail "$e verify: $(cat err.txt)"
done
"$bin" --name=j --filename=/dev/zero --ioengine=falloc --rw=write --size=64k \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "falloc /dev/zero: exit" "$?" 2
grep -q "falloc: filename=/dev/zero (<cmdline>): /dev/zero is neither a regular file nor a block device" err.txt ||
  fail "falloc /dev/zero: $(cat err.txt)"
# --readonly: a falloc read allocates holes, so the job is refused, the
# file untouched (a sparse 64 KiB file keeps 0 blocks).
rm -f F && truncate -s 64k F
"$bin" --readonly --name=j --filename=F --ioengine=falloc --rw=read --size=64k \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "falloc --readonly: exit" "$?" 2
grep -q "\-\-readonly: job 'j' allocates blocks of its files (ioengine=falloc at <cmdline>" err.txt ||
  fail "falloc --readonly: $(cat err.txt)"
expect_eq "falloc --readonly: blocks" "$(stat -c %b F)" 0
# /dev/null: a reading falloc job is refused as not a regular file (not as
# "nothing to read"), naming filename=; a reading ftruncate job fails with
# EINVAL at its first read, as in fio.
"$bin" --name=j --filename=/dev/null --ioengine=falloc --rw=read --size=64k \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "falloc read /dev/null: exit" "$?" 2
grep -q "falloc: filename=/dev/null (<cmdline>): /dev/null is neither a regular file" err.txt ||
  fail "falloc read /dev/null: $(cat err.txt)"
"$bin" --name=j --filename=/dev/null --ioengine=ftruncate --rw=read --size=64k \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "ftruncate read /dev/null: exit" "$?" 1
grep -q "err=22 (read /dev/null offset=0 length=4096: Invalid argument)" err.txt ||
  fail "ftruncate read /dev/null: $(cat err.txt)"
# A block device takes only falloc's hole punches: a read job fails with
# EOPNOTSUPP at its first read, as in fio, without opening the device for
# writing (the engine reopens a reading job's regular files read-write only).
if [ "$(id -u)" = 0 ] && truncate -s 4m img && dev=$(losetup -f --show img 2>/dev/null); then
  got=$("$bin" --name=j --filename="$dev" --ioengine=falloc --rw=read --size=64k \
    --output-format=terse 2>&1 >/dev/null)
  losetup -d "$dev"
  case $got in
    *"err=95 (read $dev offset=0 length=4096: Operation not supported)"*) echo "ok   falloc read on $dev" ;;
    *) fail "falloc read on a block device: $got" ;;
  esac
fi
# Listed as engines.
for e in falloc ftruncate; do
  "$bin" --list-engines | grep -q "^$e  *available" || fail "--list-engines lacks $e"
done
[ "$fails" -eq 0 ]
