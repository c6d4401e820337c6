#!/bin/bash
# A file too small for one block is skipped, as fio skips it, and the job
# reads the others; the report's note names it. iobench refused the whole
# job (exit 2, "the region of d/small is 1000 bytes (size=0 over 2 files),
# smaller than the bs", size=0 although size was not set). Refused only
# when no file holds a block, and then with the right words.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
mkdir d
head -c 1000 /dev/urandom >d/small
head -c 1048576 /dev/urandom >d/big
"$bin" --output-format=json --name=j --rw=read --bs=64k --opendir=d >out.json 2>err.txt
expect_eq "opendir: exit" "$?" 0
python3 - out.json <<'PY' || fail "opendir: JSON: $(head -c 300 out.json) $(cat err.txt)"
import json, sys
(j,) = json.load(open(sys.argv[1]))["jobs"]
assert j["read"]["io_bytes"] == 1048576 and j["error"] == 0, j["read"]["io_bytes"]
PY
"$bin" --name=j --rw=read --bs=64k --opendir=d >out.txt 2>err.txt
grep -q "skipped d/small (1000 bytes): too small for one block (bs=65536 (read, at <cmdline>)), as fio skips them" \
  out.txt || fail "opendir: no note naming d/small: $(grep -i skip out.txt)"
[ -s err.txt ] && fail "opendir: stderr: $(cat err.txt)"
# filename=a:b:c of 8k, 40k and 10000 bytes at bs=16k: b alone holds a
# block (fio reads 32 KiB of it).
head -c 8192 /dev/urandom >a
head -c 40960 /dev/urandom >b
head -c 10000 /dev/urandom >c
"$bin" --output-format=json --name=j --rw=read --bs=16k --filename=a:b:c >out2.json 2>err2.txt
expect_eq "a:b:c: exit" "$?" 0
python3 - out2.json <<'PY' || fail "a:b:c: JSON: $(head -c 300 out2.json) $(cat err2.txt)"
import json, sys
(j,) = json.load(open(sys.argv[1]))["jobs"]
assert j["read"]["io_bytes"] == 32768 and j["error"] == 0, j["read"]["io_bytes"]
PY
# No file holds a block: refused, and size= not set is not "size=0".
"$bin" --name=j --rw=read --bs=16k --filename=a:c >out3.txt 2>err3.txt
expect_eq "no file usable: exit" "$?" 2
grep -q "the region of a is 8192 bytes (size not set: the file's size), smaller than the bs=16384" \
  err3.txt || fail "no file usable: stderr: $(cat err3.txt)"
[ "$fails" -eq 0 ]
