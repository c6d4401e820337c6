#!/usr/bin/env bash
# time_based with filesize= above size= (docs/patterns.md, "time_based passes
# with filesize above size"): as fio
# 3.33, size= ends no time_based pass, so each file's walk goes to its
# region's end (the file's, from offset=) before it wraps. iobench wrapped
# after size= bytes: filesize=128k size=32k read blocks 0 to 7 over and
# over, never 8 to 31; a random map started over every 8 I/Os. Offsets come
# from write_iolog, checked for iobench and (when installed) fio alike. Also
# time_based rw=rw over several files: each direction walks a file to its
# end, with no byte budget shared between them.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# blocks TOOL ARGS...: runs a 250 ms time_based job and prints its first
# I/Os, one "file:block" (4k blocks) each, space separated; the caller cuts.
blocks() {
  local t=$1
  shift
  rm -f log
  "$(cmd "$t")" --thread --name=w --bs=4k --time_based --runtime=250ms --rate_iops=400 \
    "$@" --write_iolog=log --output=/dev/null 2>err.txt || echo "$t failed: $(head -c 300 err.txt)"
  awk '$3 == "read" || $3 == "write" { n = $2; sub(/.*\//, "", n); printf "%s:%d ", n, $4 / 4096 }' log
}
seq_blocks() {  # FILE FROM TO [FROM TO]...: "FILE:FROM ... FILE:TO-1", ranges in turn
  local f=$1 out="" i
  shift
  while [ $# -gt 0 ]; do
    for ((i = $1; i < $2; i++)); do out+="$f:$i "; done
    shift 2
  done
  echo "${out% }"
}
first() { tr ' ' '\n' | grep -v '^$' | head -"$1" | tr '\n' ' ' | sed 's/ $//'; }
# distinct FILE N: the distinct blocks of FILE among its first N I/Os.
distinct() { tr ' ' '\n' | grep "^$1:" | head -"$2" | sort -u | wc -l; }

for t in $(tools); do
  for eng in psync libaio null; do
    got=$(blocks "$t" --filename=f1 --filesize=128k --size=32k --rw=read --ioengine="$eng" | first 40)
    expect_eq "$t $eng read filesize=128k size=32k: 0..31, then 0" "$got" "$(seq_blocks f1 0 32 0 8)"
  done
  got=$(blocks "$t" --filename=f2 --filesize=128k --size=32k --offset=16k --rw=read \
    --ioengine=psync | first 34)
  expect_eq "$t offset=16k: 4..31, then 4" "$got" "$(seq_blocks f2 4 32 4 10)"
  got=$(blocks "$t" --filename=f3 --filesize=64k --size=32k --rw=write --ioengine=psync | first 20)
  expect_eq "$t write filesize=64k size=32k: 0..15, then 0" "$got" "$(seq_blocks f3 0 16 0 4)"
  # nrfiles=2: round robin, each file to its end (16 blocks), then both over.
  got=$(blocks "$t" --nrfiles=2 --filesize=64k --size=64k --rw=read --ioengine=psync |
    tr ' ' '\n' | grep '^w.0.1:' | first 20)
  expect_eq "$t nrfiles=2: each file 0..15, then 0" "$got" "$(seq_blocks w.0.1 0 16 0 4)"
  # The random map covers the region's 32 blocks before any repeats.
  for rw in randread randwrite; do
    got=$(blocks "$t" --filename=f4 --filesize=128k --size=32k --rw=$rw --ioengine=psync | distinct f4 32)
    expect_eq "$t $rw: 32 distinct blocks in the first 32 I/Os" "$got" 32
  done
  # rw=rw over 2 files: each direction walks a file on its own with no byte
  # budget, and the file is done once one of them reaches its end, so in
  # the first pass one direction gets to block 15 of each file and the two
  # together do more than the file's 16 blocks (iobench shared them: ~8
  # each). thinktime paces it: fio 3.33 aborts on a rated rw job over 2
  # files (rate_ddir's assertion).
  blocks "$t" --nrfiles=2 --size=128k --rw=rw --ioengine=psync --rate_iops=0 \
    --thinktime=2ms --runtime=400ms >/dev/null
  # file:walks|holes:furthest block + 1:more than 16 I/Os, per file
  got=$(awk '$3 == "read" || $3 == "write" {
      f = $2; sub(/.*\//, "", f); k = f " " $3; b = $4 / 4096
      if (f in over) next
      if (b < at[k] + 0) { over[f] = 1; next }  # a direction starts over: the pass ended
      if (b != at[k] + 0) bad[f] = 1
      at[k] = b + 1; n[f]++; if (b + 1 > top[f]) top[f] = b + 1 }
    END { for (f in n) printf "%s:%s:%d:%s\n", f, (f in bad) ? "holes" : "walks", top[f],
                               (n[f] > 16) ? "more" : "n=" n[f] }' log | sort | tr '\n' ' ')
  expect_eq "$t rw nrfiles=2: each file's first pass" "$got" "w.0.0:walks:16:more w.0.1:walks:16:more "
done
[ "$fails" -eq 0 ]
