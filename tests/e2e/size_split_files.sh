#!/bin/bash
# size= over several files is split as fio 3.33 splits it: size/nrfiles
# each, and one block more (the smallest bs of any direction) for each of
# the first (size mod nrfiles)/bs files. iobench gave every file
# size/nrfiles: bs=512 size=600599 nrfiles=600 made 600 files of 1000
# bytes and wrote 307200 bytes (fio: the first file 1512, 307712 bytes), and
# bs=4k size=413796 nrfiles=4097 (100 bytes each, 4096 over) was refused as
# too small for a block where fio writes 4 KiB into a first file of 4196
# bytes. Expected numbers: fio 3.33, also run here when fio_side allows.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

# check NAME WANT_BYTES WANT_SIZE0 WANT_SIZE1 ARGS...: runs each tool on a
# fresh directory; WANT_BYTES: read+write bytes; WANT_SIZEn: the size of
# j.0.n after the run ("-" when it is not there).
check() {
  local name=$1 want=$2 s0=$3 s1=$4
  shift 4
  for tool in $(tools); do
    rm -rf d && mkdir d
    local got
    got=$(cd d && job_counts ../err.txt "$(cmd "$tool")" --name=j --ioengine=psync "$@" |
      awk '{ print $3 + $5 }')
    expect_eq "$tool: $name: bytes" "$got" "$want"
    expect_eq "$tool: $name: stderr lines" "$(grep -c . err.txt)" 0
    [ -s err.txt ] && echo "stderr: $(head -c 300 err.txt)"
    expect_eq "$tool: $name: j.0.0" "$(stat -c %s d/j.0.0 2>/dev/null || echo -)" "$s0"
    # fio lays out the files too small for a block; iobench skips them.
    [ "$s1" = - ] || [ "$tool" = fio ] ||
      expect_eq "$tool: $name: j.0.1" "$(stat -c %s d/j.0.1 2>/dev/null || echo -)" "$s1"
  done
}

check "write bs=512 over 600 files" 307712 1512 1000 --bs=512 --rw=write --size=600599 --nrfiles=600
check "read bs=512 over 600 files" 307712 1512 1000 --bs=512 --rw=read --size=600599 --nrfiles=600
# The extra block is the smallest bs of any direction (512, the read one),
# though the job only writes: 1000 bytes hold no 1 KiB write, 1512 one.
check "write bs=512,1k" 1024 1512 - --bs=512,1k --rw=write --size=600599 --nrfiles=600
# Only the first file holds a block: the job runs on it.
check "bs=4k, 100 bytes a file" 4096 4196 - --bs=4k --rw=write --size=413796 --nrfiles=4097
# The report names a few of the files it skipped, not all 4096.
rm -rf d && mkdir d
(cd d && "$bin" --name=j --ioengine=psync --bs=4k --rw=write --size=413796 --nrfiles=4097) >out.txt
grep -q 'skipped j.0.1 (100 bytes),.* and 4088 more files: too small for one block' out.txt ||
  fail "the skipped files note: $(grep -o 'skipped.\{0,400\}' out.txt)"
[ "$(grep -o 'j\.0\.[0-9]* (100 bytes)' out.txt | wc -l)" -le 8 ] || fail "the note names every file"

[ "$fails" -eq 0 ]
