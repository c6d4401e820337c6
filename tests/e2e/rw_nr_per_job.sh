#!/bin/bash
# rw=randxxx:N (rw_sequencer=sequential): one count for the job, as fio
# 3.33's td->ddir_seq_nr, not one per file. Every N-th offset the job asks
# for is random (the first one too), the others continue sequentially in
# whichever file the I/O goes to; a failed offset and a trimwrite's write
# count as well, and a continuation that falls back to a random offset at
# the region's end does not restart the count. Counts on the null engine are
# fio's for every seed (fio 3.33, randrepeat=0, seeds 1 to 30 where fio ran
# them): iobench counted per file, so with nrfiles=3 a file's run could meet
# its partial last block and end early (randread:3 size=1m: 160 to 256 I/Os
# instead of 255).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# count TOOL SEED OPTIONS...: the I/Os write_iolog records.
count() {
  local tool=$1 seed=$2
  shift 2
  rm -f "$tmp/x.log"
  "$(cmd "$tool")" --name=j --ioengine=null --bs=4k --randrepeat=0 --randseed="$seed" "$@" \
    --write_iolog="$tmp/x.log" --output-format=json >/dev/null 2>"$tmp/err" ||
    { echo "failed: $(cat "$tmp/err")"; return; }
  awk 'NF == 5 && ($3 == "read" || $3 == "write" || $3 == "trim") { n++ } END { print n + 0 }' \
    "$tmp/x.log"
}

# shape WANT OPTIONS...: every seed from 1 to 6 gives WANT I/Os.
shape() {
  local want=$1 t s got
  shift
  for t in $(tools); do
    got=""
    for s in 1 2 3 4 5 6; do got+="$(count "$t" "$s" "$@") "; done
    expect_eq "$t $*" "$got" "$(printf "$want %.0s" 1 2 3 4 5 6)"
  done
}

shape 255 --rw=randread:3 --size=1m --nrfiles=3
shape 255 --rw=randread:3 --size=1m --nrfiles=3 --random_generator=lfsr
shape 256 --rw=randread:3 --size=1m --nrfiles=3 --norandommap
shape 249 --rw=randread:3 --size=1000k --nrfiles=3
shape 249 --rw=randread:3 --size=1000k --nrfiles=3 --random_generator=lfsr
shape 250 --rw=randread:3 --size=1000k --nrfiles=3 --norandommap
shape 24 --rw=randread:3 --size=97k --nrfiles=3
shape 25 --rw=randread:3 --size=97k --nrfiles=3 --norandommap
# Both directions share the count; a trimwrite's write moves it on too.
shape 256 --rw=randrw:3 --size=1m --nrfiles=3
shape 510 --rw=randtrimwrite:3 --size=1m --nrfiles=3

# Offsets (fio's write_iolog): randread:4 over two files, round robin: the
# job's 1st, 5th, 9th, ... I/O is random, and they all go to j.0.0; j.0.1
# only ever continues, reading its 8 blocks in order.
for t in $(tools); do
  rm -f "$tmp/x.log"
  "$(cmd "$t")" --name=j --ioengine=null --bs=4k --rw=randread:4 --size=64k --nrfiles=2 \
    --randseed=3 --write_iolog="$tmp/x.log" --output-format=json >/dev/null || fail "$t offsets run"
  expect_eq "$t randread:4 nrfiles=2: j.0.1's offsets" \
    "$(awk '$2 == "j.0.1" && $3 == "read" { printf "%d ", $4 / 4096 }' "$tmp/x.log")" \
    "0 1 2 3 4 5 6 7 "
  expect_eq "$t randread:4 nrfiles=2: files of I/Os 1, 5, 9, 13" \
    "$(awk '$3 == "read" && NF == 5 { if (n % 4 == 0) printf "%s ", $2; n++ }' "$tmp/x.log")" \
    "j.0.0 j.0.0 j.0.0 j.0.0 "
done
[ "$fails" -eq 0 ] && echo "ok: rw=randxxx:N counts per job"
[ "$fails" -eq 0 ]
