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
