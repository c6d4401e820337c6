#!/bin/bash
# Writes past the file size limit (ulimit -f, RLIMIT_FSIZE): the kernel
# sends SIGXFSZ, whose default action killed iobench (and kills fio 3.33)
# with exit 153 and no word about the job. iobench ignores SIGXFSZ, so the
# write fails with EFBIG: the job ends with err=27, the error names the
# file, the offset and "File too large", and the exit status is 1. Checked
# with psync (the layout is skipped: create_on_open) and with io_uring.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/check.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-fsize.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

run_limited() {  # ENGINE: 1 MiB limit, 4 MiB of 64k writes
  (
    ulimit -f 1024
    "$bin" --name=fsz --filename="$work/f" --rw=write --bs=64k --size=4m \
      --create_on_open=1 --ioengine="$1" --iodepth=4 >"$work/out" 2>"$work/err"
  )
}

for engine in psync io_uring; do
  rm -f "$work/f"
  run_limited "$engine"
  rc=$?
  if [ "$engine" = io_uring ] && grep -q "io_uring.*not available\|io_uring_setup" "$work/err"; then
    echo "skip io_uring: $(head -1 "$work/err")"
    continue
  fi
  expect_eq "$engine exit status" "$rc" 1
  expect_eq "$engine error on stderr" \
    "$(grep -c "err=27 (write $work/f offset=[0-9]* length=65536: File too large)" "$work/err")" 1
  # The report names it in the job line (no errors line without
  # continue_on_error, as fio).
  grep -q "): err=27 (write $work/f offset=" "$work/out" || fail "$engine: no err=27 in the report"
  expect_eq "$engine file stops at the limit" "$(stat -c %s "$work/f")" 1048576
done
[ "$fails" -eq 0 ]
