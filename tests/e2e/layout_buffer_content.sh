#!/bin/bash
# The data a reading job lays out follows buffer_pattern and
# buffer_compress_percentage, as fio's layout (it fills each write as the
# job's writes); iobench wrote random data whatever they said (zero_buffers
# was honoured already).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
"$bin" --name=p --rw=read --size=64k --buffer_pattern=0xdeadbeef --output-format=terse \
  >/dev/null 2>err.txt
expect_eq "pattern: exit" "$?" 0
expect_eq "pattern: first bytes" "$(od -An -tx1 -N8 p.0.0 | tr -d ' \n')" "deadbeefdeadbeef"
expect_eq "pattern: distinct 4-byte words" "$(od -An -tx4 -v p.0.0 | tr -s ' ' '\n' | grep . | sort -u | wc -l)" 1
"$bin" --name=c --rw=read --size=1m --buffer_compress_percentage=50 --buffer_compress_chunk=4k \
  --output-format=terse >/dev/null 2>>err.txt
expect_eq "compress: exit" "$?" 0
python3 - c.0.0 <<'PY' || fail "compress: the laid-out file does not compress by about half"
import sys, zlib
data = open(sys.argv[1], "rb").read()
ratio = len(zlib.compress(data, 6)) / len(data)
assert len(data) == 1 << 20 and 0.4 < ratio < 0.6, ratio
PY
[ -s err.txt ] && fail "stderr: $(cat err.txt)"
[ "$fails" -eq 0 ]
