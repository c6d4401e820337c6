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

# An empty file among others, size= not set: fio 3.33 sizes the job by the
# others and skips it (filename=z:big reads 16 KiB of big; s:z:big too, s
# 3000 bytes; a writer of big:z writes big). iobench refused the whole job
# (exit 2, "size is not set and z does not exist or is empty").
: >z
head -c 16384 /dev/urandom >big
head -c 3000 /dev/urandom >s
# empty_run NAME RW FILES BYTES: the job's exit and bytes moved.
empty_run() {
  "$bin" --output-format=json --name=j --bs=4k --ioengine=psync --rw="$2" --filename="$3" \
    >e.json 2>e.txt
  expect_eq "$1: exit" "$?" 0
  expect_eq "$1: bytes" "$(python3 -c "import json; j = json.load(open('e.json'))['jobs'][0]
print(j['read']['io_bytes'] + j['write']['io_bytes'], j['error'])")" "$4 0"
  [ -s e.txt ] && fail "$1: stderr: $(cat e.txt)"
  expect_eq "$1: sizes" "$(stat -c %s z big s | tr '\n' ' ')" "0 16384 3000 "
}
empty_run "empty first" read z:big 16384
empty_run "empty last, writer" write big:z 16384
empty_run "small and empty" read s:z:big 16384
"$bin" --name=j --bs=4k --rw=read --filename=s:z:big >out4.txt 2>err4.txt
grep -q "skipped s (3000 bytes), z (0 bytes): too small for one block" out4.txt ||
  fail "small and empty: the note: $(grep -i skip out4.txt)"
# Every file empty: refused, as fio ("you need to specify size="); an empty
# and a small one: the small one is named (fio: "blocksize is larger than
# data set range").
"$bin" --name=j --bs=4k --rw=read --filename=z:z >out5.txt 2>err5.txt
expect_eq "all empty: exit" "$?" 2
grep -qF "size is not set and z and the job's other file are empty (set size= or filesize=)" \
  err5.txt || fail "all empty: stderr: $(cat err5.txt)"
"$bin" --name=j --bs=4k --rw=read --filename=z:s >out6.txt 2>err6.txt
expect_eq "empty and small: exit" "$?" 2
grep -q "the region of s is 3000 bytes" err6.txt || fail "empty and small: $(cat err6.txt)"
[ "$fails" -eq 0 ]
