#!/bin/bash
# verify_state_load with a state file that is damaged or belongs to another
# job: the run is refused before any I/O with exit 2, and the message names
# where the option was set (<cmdline>), the file and what is wrong. fio's
# own state file is told apart: it said "not an iobench verify state file". Table-driven: each case writes the state file
# (from a good one saved by a 64k verify=crc32c write) and runs a
# verify_only read-verify that loads it. A directory and a missing file are
# covered by verify_state.sh.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

st=local-w-0-verify.state
save() {  # OPTIONS...: a write job (named $sn, default w) that saves its state
  "$bin" --name="${sn:-w}" --filename=f --size=64k --rw=write --verify=crc32c --do_verify=0 \
    --verify_state_save=1 "$@" --output-format=json >/dev/null 2>err.txt || fail "save $*"
}
save
cp "$st" good
cp f f.good
# Damaged copies of good whose trailing CRC32C is valid again, made at once
# (one python run): e.header (cut after 20 bytes), e.records (the last
# record cut), e.version (version 9); and fio.state, shaped as fio 3.33's
# (u64 version 3, u64 size of the rest, u64 CRC, then the rest).
python3 - <<'PY' || fail "could not make the damaged copies"
import struct
def crc32c(b):
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
    return c ^ 0xffffffff
d = open("good", "rb").read()[:-4]
for name, e in (("header", d[:20]), ("records", d[:-16]),
                ("version", d[:8] + struct.pack("<I", 9) + d[12:])):
    open("e." + name, "wb").write(e + struct.pack("<I", crc32c(e)))
rest = bytes(168)
open("fio.state", "wb").write(struct.pack("<QQQ", 3, len(rest), crc32c(rest)) + rest)
PY
# fio's real one, when fio is installed.
fio_state=fio.state
if fio_side; then
  mkdir fio.d
  (cd fio.d && fio --name=w --filename=f --size=64k --rw=write --verify=crc32c --do_verify=0 \
    --verify_state_save=1 >/dev/null 2>&1) && [ -s fio.d/local-w-0-verify.state ] &&
    fio_state=fio.d/local-w-0-verify.state
fi
# The good file loads: the check itself works.
cp good "$st"
run --name=w --filename=f --size=64k --rw=read --verify=crc32c --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "the good state file: exit $rc"

n=0
while IFS='|' read -r name how reason; do
  [ -n "$name" ] || continue
  n=$((n + 1))
  cp good "$st"
  eval "$how" || fail "$name: could not make the file"
  cp f.good f
  before=$(stat -c %Y.%s f)
  run --name=w --filename=f --size=64k --rw=read --verify=crc32c --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 2 ] || fail "$name: exit $rc, want 2"
  want="iobench: job 'w': verify_state_load=1 (<cmdline>): $st: $reason"
  [ "$(cat err.txt)" = "$want" ] || fail "$name: message $(cat err.txt), want $want"
  [ ! -s out.json ] || fail "$name: a report was written"
  [ "$(stat -c %Y.%s f)" = "$before" ] || fail "$name: the data file was touched"
  echo "ok   $name"
done <<'CASES'
garbage|head -c 204 /dev/urandom >"$st"|not an iobench verify state file
empty|: >"$st"|not an iobench verify state file
magic only|head -c 8 good >"$st"|not an iobench verify state file
truncated|head -c 100 good >"$st"|checksum mismatch (truncated or damaged)
one byte short|head -c 203 good >"$st"|checksum mismatch (truncated or damaged)
flipped byte|flip "$st" 100|checksum mismatch (truncated or damaged)
header cut, CRC valid|cp e.header "$st"|truncated header
records cut, CRC valid|cp e.records "$st"|truncated records
version 9|cp e.version "$st"|unsupported version 9
type md5|save --verify=md5|saved for verify=md5, this job uses verify=crc32c
another job name|sn=x save; mv local-x-0-verify.state "$st"|saved for another job name
verify_interval 512|save --verify_interval=512|saved with verify_interval=512, this job uses 4096
two files|"$bin" --name=w --filename=f:f2 --size=128k --rw=write --verify=crc32c --do_verify=0 >/dev/null|saved for 2 files, this job has 1: use the writer's filename= (or nrfiles=)
fio's state file|cp "$fio_state" "$st"|this looks like fio's verify state file (version 3), which iobench does not read: save the state with an iobench run of the writing job (verify_state_save=1, the default)
CASES
[ "$n" -eq 14 ] || fail "$n cases ran, want 14"
echo "ok: damaged verify state files are refused, naming file and reason"
