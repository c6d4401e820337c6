#!/bin/bash
# Verify failures go through fio's error policy, as I/O errors do (EILSEQ is
# the verify class). A 64 KiB file of random bytes read with verify=crc32c
# fails all 16 blocks. fio 3.33 on the same jobs:
#  - no policy, or continue_on_error=read: exit 1, error 84;
#  - continue_on_error=verify|all, ignore_error=,,84 (also rw=write
#    verify_only=1, also with verify_fatal=1): exit 0, every block checked,
#    error 84 shown, total_err 16, first_error 84 (JSON, terse, and the
#    normal report's `errors: total=16, first_error=84`).
# iobench used to exit 1 with total_err 0 in all of them. verify_fatal=1
# stops a tolerated job at a bad checksum, not at a bad header (fio's).
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

head -c 65536 /dev/urandom >data
job=(--name=v --filename=data --bs=4k --size=64k --verify=crc32c --verify_state_save=0)

for v in "--continue_on_error=verify" "--continue_on_error=all" "--ignore_error=,,84" \
  "--continue_on_error=verify --verify_fatal=1" "--rw=write --verify_only=1 --continue_on_error=verify"; do
  # shellcheck disable=SC2086
  run "${job[@]}" --rw=read $v
  [ "$rc" -eq 0 ] || fail "$v: exit $rc"
  got=$(jget '"%d %d %d %d" % (doc["jobs"][0]["error"], doc["jobs"][0]["total_err"], doc["jobs"][0]["first_error"], doc["jobs"][0]["read"]["total_ios"])')
  [ "$got" = "84 16 84 16" ] || fail "$v: error/total_err/first_error/reads $got, want 84 16 84 16"
  [ "$(grep -c "^iobench: job 'v': verify:" err.txt)" = 10 ] || fail "$v: want the first 10 failures on stderr"
done
echo "ok: tolerated verify failures are counted and the job goes on"

# shellcheck disable=SC2207
t=($("$bin" "${job[@]}" --rw=read --continue_on_error=verify --output-format=terse 2>/dev/null | awk -F';' '{print $5, $(NF-1), $NF}'))
[ "${t[*]}" = "84 16 84" ] || fail "terse error/total_err/first_error: ${t[*]}"
"$bin" "${job[@]}" --rw=read --continue_on_error=verify >normal.txt 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] || fail "normal: exit $rc"
grep -q "errors    : total=16, first_error=84/" normal.txt || fail "normal: no errors: total=16 line"
echo "ok: terse and normal reports count them"

for v in "" "--continue_on_error=read" "--verify_fatal=1"; do
  # shellcheck disable=SC2086
  run "${job[@]}" --rw=read $v
  [ "$rc" -eq 1 ] || fail "'$v': exit $rc, want 1"
  [ "$(jget 'doc["jobs"][0]["error"]')" = 84 ] || fail "'$v': error is not 84"
done
echo "ok: without the verify class in continue_on_error a failure is the job's error"

# verify_fatal stops a tolerated job at a bad checksum (fio 3.33's
# verify_io_u terminates it there; at a bad header, as in the random bytes
# above, it returns before that and the job goes on). A crc32c file with two
# flipped data bytes: fio reads 2 blocks, total_err 1, exit 0; iobench read
# all 16 (total_err 2). Without verify_fatal both tools read all 16.
job=(--name=w --filename=good --bs=4k --size=64k --rw=write --verify=crc32c --verify_state_save=0)
run "${job[@]}" --do_verify=0
flip good 5000
flip good 30000
for v in "--continue_on_error=verify" "--ignore_error=,,84"; do
  # shellcheck disable=SC2086
  run "${job[@]}" --verify_only=1 $v --verify_fatal=1
  [ "$rc" -eq 0 ] || fail "$v verify_fatal, bad data: exit $rc"
  got=$(jget '"%d %d %d %d" % (doc["jobs"][0]["error"], doc["jobs"][0]["total_err"], doc["jobs"][0]["first_error"], doc["jobs"][0]["read"]["total_ios"])')
  [ "$got" = "84 1 84 2" ] || fail "$v verify_fatal, bad data: error/total_err/first_error/reads $got, want 84 1 84 2"
  # shellcheck disable=SC2086
  run "${job[@]}" --verify_only=1 $v
  got=$(jget '"%d %d %d %d" % (doc["jobs"][0]["error"], doc["jobs"][0]["total_err"], doc["jobs"][0]["first_error"], doc["jobs"][0]["read"]["total_ios"])')
  [ "$rc.$got" = "0.84 2 84 16" ] || fail "$v, bad data: exit $rc, $got, want 84 2 84 16"
done
echo "ok: verify_fatal stops a tolerated job at its first bad checksum"
