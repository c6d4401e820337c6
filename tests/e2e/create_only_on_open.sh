#!/bin/bash
# create_on_open=1 with create_only=1: fio opens no file, so it creates
# none; iobench left an empty j.0.0 (mode 0600). An existing file is left
# as it was. Without create_on_open, create_only lays the file out.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir d
"$bin" --name=j --rw=write --size=64k --directory=d --create_on_open=1 --create_only=1 \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "exit" "$?" 0
expect_eq "files left" "$(ls d)" ""
head -c 4096 /dev/urandom >d/j.0.0
cp d/j.0.0 before
"$bin" --name=j --rw=write --size=64k --directory=d --create_on_open=1 --create_only=1 \
  --output-format=terse >/dev/null 2>>err.txt
cmp -s before d/j.0.0 || fail "the existing file changed or went"
rm d/j.0.0
"$bin" --name=j --rw=write --size=64k --directory=d --create_only=1 --output-format=terse \
  >/dev/null 2>>err.txt
expect_eq "create_only alone lays out" "$(stat -c %s d/j.0.0 2>/dev/null)" 65536
# Its write_iolog has each file's "add" line and nothing else, as fio's
# (iobench logged an "open" and a "close" of each file, never opened).
rm -f d/*
"$bin" --name=j --rw=write --nrfiles=2 --size=64k --directory=d --create_only=1 \
  --write_iolog=c.log --output-format=terse >/dev/null 2>>err.txt
expect_eq "create_only iolog" "$(awk 'NR > 1 {print $2, $3}' c.log | tr '\n' ';')" \
  "d/j.0.0 add;d/j.0.1 add;"
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
[ "$fails" -eq 0 ]
