#!/bin/bash
# verify_only=1 makes a job a reader: its file is opened read-only and the
# mounted-device and --readonly checks pass it. With rw=trim or randtrim
# it has no writes to read back and issued its trims, which failed with
# err=9 (Bad file descriptor), under --readonly too (fio refuses it there).
# Now refused before any I/O naming both options; trimwrite and
# randtrimwrite with verify_only verify their writes and trim nothing.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
head -c 1M /dev/urandom >"$work/f"
cp "$work/f" "$work/before"
for rw in trim randtrim; do
  expect_run "$rw verify_only refused" 2 \
    "^iobench: job 'j': verify_only=1 \(<cmdline>\) with rw=$rw \(<cmdline>\): .*only trims" \
    -- "$bin" --name=j --filename=f --rw=$rw --bs=4k --size=1m --verify=crc32c --verify_only=1
  [ -s "$work/out" ] && fail "$rw: a report was printed"
  expect_run "$rw verify_only --readonly refused" 2 "verify_only=1 \(<cmdline>\) with rw=$rw" \
    -- "$bin" --readonly --name=j --filename=f --rw=$rw --bs=4k --size=1m --verify=crc32c \
    --verify_only=1
done
printf '[j]\nfilename=f\nrw=randtrim\nbs=4k\nsize=1m\nverify=md5\nverify_only=1\n' >"$work/t.fio"
expect_run "job file names both lines" 2 "verify_only=1 \(t.fio:7\) with rw=randtrim \(t.fio:3\)" \
  -- "$bin" t.fio
cmp -s "$work/f" "$work/before" || fail "the file changed"
# trimwrite: written with verify headers, then verified without trims.
for rw in trimwrite randtrimwrite; do
  expect_run "$rw writes" 0 "" -- "$bin" --name=j --filename=f --rw=$rw --bs=4k --size=1m \
    --verify=crc32c --do_verify=0 --randrepeat=1 --output-format=terse
  expect_run "$rw verify_only runs" 0 "" -- "$bin" --readonly --name=j --filename=f --rw=$rw \
    --bs=4k --size=1m --verify=crc32c --verify_only=1 --randrepeat=1 --output-format=json
  grep -q '"trim" *: *{' "$work/out" &&
    expect_eq "$rw verify_only: trims issued" \
      "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["trim"]["total_ios"])' "$work/out")" 0
done
# trimwrite with trims and writes of different sizes (bs=4k,8k,16k: they
# walk apart): verify reads back each 8k write, in the job and in a
# verify_only run after it.
counts() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
print(j["error"], j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"])' "$1"
}
expect_run "trimwrite apart verifies" 0 "" -- "$bin" --name=j --filename=f --rw=trimwrite \
  --bs=4k,8k,16k --size=64k --verify=crc32c --output-format=json
expect_eq "trimwrite apart: error reads writes trims" "$(counts "$work/out")" "0 7 7 4"
expect_run "trimwrite apart verify_only" 0 "" -- "$bin" --name=j --filename=f --rw=trimwrite \
  --bs=4k,8k,16k --size=64k --verify=crc32c --verify_only=1 --output-format=json
expect_eq "trimwrite apart verify_only: error reads writes trims" "$(counts "$work/out")" "0 7 0 0"
[ "$fails" -eq 0 ]
