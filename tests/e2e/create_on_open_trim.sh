#!/bin/bash
# create_on_open=1 creates a missing file at its open, except for a
# trim-only job: fio 3.33 opens rw=trim/randtrim without O_CREAT and fails
# with ENOENT, creating nothing; iobench created an empty file (mode 0600)
# and "trimmed" it, exit 0. trimwrite and read jobs create it, as fio's.
# The error names the job once (it said "job 't': err=2 (job 't': open").
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir d
for rw in trim randtrim; do
  "$bin" --name=t --filename=d/$rw --rw=$rw --size=64k --bs=4k --create_on_open=1 \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$rw exit" "$?" 1
  expect_eq "$rw stderr" "$(cat err.txt)" \
    "iobench: job 't': err=2 (filename=d/$rw at <cmdline>: open d/$rw: No such file or directory)"
  [ -e d/$rw ] && fail "$rw created d/$rw"
done
for rw in trimwrite read; do
  "$bin" --name=t --filename=d/$rw --rw=$rw --size=64k --bs=4k --create_on_open=1 \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$rw exit" "$?" 0
  expect_eq "$rw made d/$rw, mode" "$(stat -c %a d/$rw 2>/dev/null)" 600
  [ -s err.txt ] && fail "$rw stderr: $(cat err.txt)"
done
if command -v fio >/dev/null; then
  mkdir f
  for rw in trim randtrim trimwrite read; do
    fio --name=t --filename=f/$rw --rw=$rw --size=64k --bs=4k --create_on_open=1 \
      --output-format=terse >/dev/null 2>&1
    expect_eq "fio: f/$rw made" "$([ -e f/$rw ] && echo yes || echo no)" \
      "$([ -e d/$rw ] && echo yes || echo no)"
  done
fi
[ "$fails" -eq 0 ]
