#!/bin/bash
# A read-verify whose job does not match the one that wrote the file: a
# different verify type (written crc32c, checked md5) or a different block
# size (written bs=8k, checked bs=4k) fails the first block read, naming the
# file, the offset and the header that was read; err=84 (EILSEQ), exit 1.
# fio 3.33 on the same jobs: err=84, exit 1 after 1 read with verify_fatal=1
# ("verify type mismatch (5 media, 2 given)", "bad header length 8192,
# wanted 4096 at file f offset 0"). Without verify_fatal iobench checks every
# block (docs/verify.md): 16 reads, 10 messages and a "more" line.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/fio_side.bash"
source "$(dirname "$0")/verify_common.bash"

# counts: "error read-ios" of out.json's first job (fio's pretty JSON: the
# job's "error" and its read "total_ios" are the first of their names).
counts() {
  awk -F' : ' '/"error"/ && e == "" { e = $2 + 0 } /"total_ios"/ && n == "" { n = $2 + 0 }
    END { print e, n }' out.json
}

# check TOOL WRITE-OPTS -- READ-OPTS: writes f (64k) then read-verifies it
# with verify_fatal=1; expects exit 1, err=84 after 1 read.
check() {
  local tool=$1 w=() r=()
  shift
  while [ "$1" != -- ]; do w+=("$1"); shift; done
  shift
  r=("$@")
  rm -f f
  "$tool" --name=w --filename=f --size=64k --rw=write --do_verify=0 "${w[@]}" >/dev/null 2>&1 ||
    fail "$tool: the write failed"
  "$tool" --name=w --filename=f --size=64k --rw=read --verify_fatal=1 "${r[@]}" \
    --output-format=json >out.json 2>err.txt
  rc=$?
  [ "$rc" -eq 1 ] || fail "$tool ${r[*]}: exit $rc, want 1"
  local got
  got=$(counts)
  [ "$got" = "84 1" ] || fail "$tool ${r[*]}: error/reads $got, want 84 1"
}

hdr="read header: magic=0x56424f49 version=1 type=crc32c"
check "$bin" --verify=crc32c -- --verify=md5
[ "$(wc -l <err.txt)" -eq 1 ] || fail "type: more than one message"
grep -q "^iobench: job 'w': verify: f: corrupted block at offset 0, length 4096: written with verify=crc32c, this job checks verify=md5 (verify=meta checks the header of any checksum type); $hdr length=4096 offset=0 " err.txt ||
  fail "type mismatch message"
check "$bin" --verify=crc32c --bs=8k -- --verify=crc32c --bs=4k
[ "$(wc -l <err.txt)" -eq 1 ] || fail "bs: more than one message"
grep -q "^iobench: job 'w': verify: f: corrupted block at offset 0, length 4096: header length 8192 != chunk length 4096 (written with another bs or verify_interval than this job's?); $hdr length=8192 offset=0 .*; expected header: magic=0x56424f49 version=1 type=crc32c length=4096 offset=0 " err.txt ||
  fail "block size mismatch message"

# Without verify_fatal: every block is checked and counted.
"$bin" --name=w --filename=f --size=64k --rw=read --verify=crc32c --bs=4k \
  --output-format=json >out.json 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "no verify_fatal: exit $rc"
[ "$(counts)" = "84 16" ] || fail "no verify_fatal: error and reads $(counts)"
[ "$(grep -c "^iobench: job 'w': verify: f: " err.txt)" -eq 10 ] || fail "no verify_fatal: 10 messages"
# Every other 4k block starts inside an 8k block: no header there.
[ "$(grep -c "corrupted block at offset [0-9]*, length 4096: header length 8192" err.txt)" -eq 5 ] ||
  fail "no verify_fatal: 5 length mismatches in the first 10"
tail -n1 err.txt | grep -qx "iobench: job 'w': more verify failures; the rest are counted, not printed" ||
  fail "no verify_fatal: the last line"

if fio_side; then
  check fio --verify=crc32c -- --verify=md5
  grep -q "^fio: verify type mismatch (5 media, 2 given)" err.txt || fail "fio's type message"
  check fio --verify=crc32c --bs=8k -- --verify=crc32c --bs=4k
  grep -q "^verify: bad header length 8192, wanted 4096 at file f offset 0, length 4096" err.txt ||
    fail "fio's header length message"
fi
echo "ok: verify header mismatches fail the first block, naming offset and header"
