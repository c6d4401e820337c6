#!/bin/bash
# Verify options that cannot work together are refused before any I/O
# (exit 2, no file created), naming the job once and where each option was
# set in the job file, as the run's other job checks do. They used to fail
# the job at its set-up with "job 'j': ... (job 'j')" and no line.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

check_refused() {  # JOBFILE-BODY EXPECTED-MESSAGE
  printf '%b' "$1" >job.fio
  "$bin" job.fio --output-format=json >out.json 2>err.txt
  rc=$?
  [ "$rc" -eq 2 ] || fail "job file $1: exit $rc, want 2"
  grep -qxF "iobench: $2" err.txt || fail "job file $1: message"
}
check_refused "[j]\nfilename=$tmp/h\nrw=write\nverify=crc32c\nverify_interval=1000\n" \
  "job 'j': verify_interval=1000 (job.fio:5) does not divide the block size 4096: give a divisor of it"
check_refused "[j]\nfilename=$tmp/h\nrw=write\nverify=pattern\n" \
  "job 'j': verify=pattern (job.fio:4) needs verify_pattern"
check_refused "[j]\nfilename=$tmp/h\nrw=write\nverify=crc32c\nverify_offset=4000\n" \
  "job 'j': verify_offset=4000 (job.fio:5): the 128-byte header of verify=crc32c (job.fio:4) would end past verify_interval 4096 (the block size)"
check_refused "[j]\nfilename=$tmp/h\nrw=write\nverify=crc32c\nverify_only=1\ndo_verify=0\n" \
  "job 'j': verify_only=1 (job.fio:5) with do_verify=0 (job.fio:6) checks nothing (fio does no I/O): drop do_verify=0 to check the data, or verify_only to write it"
[ ! -e "$tmp/h" ] || fail "a refused job created its file"
# A later job's verify options are refused before the first job runs.
check_refused "[a]\nfilename=$tmp/a\nrw=write\nsize=64k\n[b]\nstonewall\nfilename=$tmp/h\nrw=write\nverify=crc32c\nverify_interval=1000\n" \
  "job 'b': verify_interval=1000 (job.fio:10) does not divide the block size 4096: give a divisor of it"
[ ! -e "$tmp/a" ] || fail "the job before the refused one ran"
echo "ok: verify option errors name the job file's lines"

# A job that only reads checks every block it reads whatever do_verify says
# (fio 3.33 too), so verify_only=1 with do_verify=0 runs there: the read-back
# half of a write-then-check script, which was refused as above.
python3 -c "open('$tmp/p', 'wb').write(b'\xaa' * 65536)"
"$bin" --name=r --filename="$tmp/p" --rw=randread --size=64k --verify=pattern \
  --verify_pattern=0xAA --verify_only=1 --do_verify=0 --output-format=json >out.json 2>err.txt
expect_eq "read, verify_only, do_verify=0: exit" "$?" 0
expect_eq "read, verify_only, do_verify=0: stderr" "$(cat err.txt)" ""
printf '\0' | dd of="$tmp/p" bs=1 seek=40000 conv=notrunc status=none
"$bin" --name=r --filename="$tmp/p" --rw=randread --size=64k --verify=pattern \
  --verify_pattern=0xAA --verify_only=1 --do_verify=0 --output-format=json >out.json 2>err.txt
expect_eq "read, verify_only, do_verify=0, a bad byte: exit" "$?" 1
grep -q "first differing byte at file offset 40000" err.txt || fail "bad byte not named: $(head -c 300 err.txt)"

# Values fio 3.33 refuses when it parses them ("failed parsing"), which
# iobench used to take: a verify_interval of 2g or more (fio keeps it in an
# int; iobench used the block size instead) and a pattern longer than 512
# bytes (iobench wrote all of it). The message names the file and line.
check_parse_refused() {  # JOBFILE-BODY EXPECTED-FIRST-LINE
  printf '%b' "$1" >job.fio
  "$bin" job.fio --output-format=json >out.json 2>err.txt
  rc=$?
  [ "$rc" -eq 2 ] || fail "job file $1: exit $rc, want 2"
  [ "$(head -1 err.txt)" = "$2" ] || fail "job file $1: message $(head -1 err.txt), want $2"
}
long=$(python3 -c 'print("ab" * 513)')
check_parse_refused "[j]\nfilename=$tmp/h\nrw=write\nverify=crc32c\nverify_interval=1t\n" \
  "job.fio:5:17: option 'verify_interval': 1099511627776 is above fio's maximum, 2147483647 bytes (fio refuses it); leave it unset for the block size"
check_parse_refused "[j]\nfilename=$tmp/h\nrw=write\nverify_pattern=0x$long\n" \
  "job.fio:4:16: option 'verify_pattern': the pattern is 513 bytes, longer than fio's 512 (fio refuses it): shorten it"
check_parse_refused "[j]\nfilename=$tmp/h\nrw=write\nbuffer_pattern=0x$long\n" \
  "job.fio:4:16: option 'buffer_pattern': the pattern is 513 bytes, longer than fio's 512 (fio refuses it): shorten it"
[ ! -e "$tmp/h" ] || fail "a refused job created its file"
# At fio's limits they are taken: 512 bytes, 2147483647 (then the block size).
run --name=j --filename=h --size=64k --rw=write --verify=crc32c --verify_interval=2147483647 \
  "--verify_pattern=0x${long:2}"
[ "$rc" -eq 0 ] || fail "fio's limits: exit $rc: $(cat err.txt)"
echo "ok: values fio refuses when parsing are refused, naming the line"
