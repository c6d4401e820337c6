#!/bin/bash
# Holed sequential I/O (rw=read:4k, rw=write:4k) over a region smaller than
# its file, as fio 3.33's get_next_seq_offset: a step wraps to the start only
# when it reaches the file's size (compared from the region start), so a
# region that ends before the file's end is read once (size=64k of 4 MiB: 8
# reads, not 16), and one with an offset is not wrapped either; a step past
# the file's end from inside a region at offset O goes on at O from the
# region start (at 2*O). Counts and offsets from fio 3.33's write_iolog
# (psync, bs=4k); each case prints "I/Os lowest highest sum" of the offsets in KiB.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

head -c 4m /dev/zero >F
head -c 64k /dev/zero >G

# offs TOOL FILE OPTIONS...: the job's reads and writes from write_iolog.
offs() {
  local tool=$1 file=$2
  shift 2
  rm -f "$tmp/x.log"
  "$(cmd "$tool")" --name=j --ioengine=psync --filename="$file" --bs=4k "$@" \
    --write_iolog="$tmp/x.log" --output-format=json >/dev/null 2>"$tmp/err" ||
    { echo "failed: $(cat "$tmp/err")"; return; }
  awk '($3 == "read" || $3 == "write") && NF == 5 {
      o = $4 / 1024; if (!n++ || o < lo) lo = o; if (o > hi) hi = o; s += o
    }
    END { print n + 0, lo + 0, hi + 0, s + 0 }' "$tmp/x.log"
}

check() {
  local want=$1
  shift
  for t in $(tools); do expect_eq "$t $*" "$(offs "$t" "$@")" "$want"; done
}

# Region from 0, smaller than the file: once, 0 to 56k (before: twice).
check "8 0 56 224" F --rw=read:4k --size=64k
check "50 0 392 9800" F --rw=read:4k --size=400k
check "51 0 400 10200" F --rw=read:4k --size=10%
check "8 0 56 224" F --rw=write:4k --size=64k
check "24 0 56 672" F --rw=read:4k --size=64k --loops=3
# With an offset: once, whether the region ends before the file's end or at it.
check "51 412 812 31212" F --rw=read:4k --size=10% --offset=10%
check "8 4032 4088 32480" F --rw=read:4k --offset=4032k
# The region is the whole file: the step past its end wraps, 16 reads.
check "16 0 56 448" G --rw=read:4k
check "6 0 60 180" G --rw=read:8k
# A step from inside a region at 4k past the file's end goes on at 8k.
check "15 4 8 116" G --rw=read:64k --offset=4k --size=60k
# Clones at 0, 64k and 128k, each once over its 192k.
check "72 0 312 11232" F --rw=read:4k --size=192k --offset_increment=64k --numjobs=3
# time_based: each pass over the region is once, 0 to 56k.
for t in $(tools); do
  rm -f "$tmp/x.log"
  "$(cmd "$t")" --name=j --ioengine=psync --filename=F --bs=4k --rw=read:4k --size=64k \
    --time_based --runtime=1s --number_ios=24 --write_iolog="$tmp/x.log" \
    --output-format=json >/dev/null 2>"$tmp/err" || fail "$t time_based: $(cat "$tmp/err")"
  got=$(awk '$3 == "read" && NF == 5 && n++ < 24 { printf "%s%d", (n > 1 ? "," : ""), $4 / 1024 }' "$tmp/x.log")
  expect_eq "$t time_based" "$got" "0,8,16,24,32,40,48,56,0,8,16,24,32,40,48,56,0,8,16,24,32,40,48,56"
done
[ "$fails" -eq 0 ]
