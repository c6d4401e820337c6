#!/bin/bash
# A random job's sequential continuations (percentage_random, rw=randxxx:N)
# with the random map, counted as fio 3.33 counts them (null engine and small
# files on $tmp, counts from fio's write_iolog, the same for every randseed):
# a continuation neither consults nor marks the map, and a file has no byte
# budget of its own, so a file whose pass ends early leaves its share to the
# others. iobench used to take a random offset when a continuation met a
# block the map had used, and so walked into the partial last block and
# ended the pass early (randrw size=256k bs=6000 percentage_random=0: 16 to
# 43 I/Os, fio 44), and to cap each file at its region's bytes.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# count TOOL ARGS...: "I/Os/bytes" of one run, from its write_iolog.
count() {
  local tool=$1
  shift
  rm -f c.log
  "$(cmd "$tool")" --name=j "$@" --write_iolog=c.log --output=/dev/null >/dev/null 2>err ||
    { echo "failed: $(head -3 err)"; return; }
  awk '$3 == "read" || $3 == "write" || $3 == "trim" { n++; b += $5 } END { print n + 0 "/" b + 0 }' c.log
}

# shape NAME WANT ARGS...: the count for seeds 1 to 5 (fio's is the same for each).
shape() {
  local name=$1 want=$2 t s
  shift 2
  for t in $(tools); do
    for s in 1 2 3 4 5; do
      expect_eq "$t $name seed $s" "$(count "$t" --ioengine=null "$@" --randseed=$s)" "$want"
    done
  done
}

# Mixed: reads and writes each walk from 0 over blocks the other used.
shape "randrw bs=6000 percentage_random=0" 44/264000 \
  --rw=randrw --size=256k --bs=6000 --percentage_random=0
shape "randrw nrfiles=2 bs=6000 percentage_random=0" 88/528000 \
  --rw=randrw --nrfiles=2 --size=512k --bs=6000 --percentage_random=0
# Shapes that agreed before, and still do.
shape "randread bs=6000 percentage_random=0" 43/258000 \
  --rw=randread --size=256k --bs=6000 --percentage_random=0
shape "randtrim nrfiles=4 size=1028k percentage_random=0" 256/1048576 \
  --rw=randtrim --nrfiles=4 --size=1028k --percentage_random=0
shape "randread percentage_random=50" 256/1048576 --rw=randread --size=1m --percentage_random=50
shape "randrw:3" 256/1048576 --rw=randrw:3 --size=1m

# Files of 26k and 64k: a's continuation from 24k does not fit and ends its
# pass after 6 reads; b walks on to 60k, and from its end takes a random
# offset, which its map (no block marked by the continuations) still has:
# 23 reads of the 90k (iobench: 22, b ended at its 64k, its map full).
head -c 26624 /dev/zero >a
head -c 65536 /dev/zero >b
for t in $(tools); do
  rm -f c.log
  "$(cmd "$t")" --name=j --filename=a:b --rw=randread --percentage_random=0 --bs=4k \
    --write_iolog=c.log --output=/dev/null >/dev/null 2>err || fail "$t a:b: $(head -3 err)"
  expect_eq "$t files of 26k and 64k: reads of a, b" \
    "$(awk '$3 == "read" { n[$2]++ } END { print n["a"] + 0, n["b"] + 0 }' c.log)" "6 17"
  expect_eq "$t files of 26k and 64k: a's offsets (k)" \
    "$(awk '$2 == "a" && $3 == "read" { printf "%d ", $4 / 1024 }' c.log)" "0 4 8 12 16 20 "
done

# A fixed block may run past the region inside the file, with the map too
# (the continuation does not mark it): size=26k on a 1 MiB file reads 24k.
head -c 1048576 /dev/zero >big
for t in $(tools); do
  rm -f c.log
  "$(cmd "$t")" --name=j --filename=big --rw=randread --percentage_random=0 --bs=4k --size=26k \
    --write_iolog=c.log --output=/dev/null >/dev/null 2>err || fail "$t big: $(head -3 err)"
  expect_eq "$t size=26k on 1 MiB: offsets (k)" \
    "$(awk '$3 == "read" { printf "%d ", $4 / 1024 }' c.log)" "0 4 8 12 16 20 24 "
done

# A pass whose continuations rewrite blocks is verified from the record,
# each block once (fio 3.33 replays it write by write and reports the older
# write of a block as bad).
for args in "--rw=randwrite:4" "--rw=randwrite --percentage_random=50"; do
  rm -f vf v.log
  # shellcheck disable=SC2086  # $args: options, split on purpose
  "$bin" --name=v --filename=vf $args --bs=4k --size=256k --verify=crc32c --write_iolog=v.log \
    --output-format=json >v.json 2>err || fail "$args verify: exit $?: $(head -3 err)"
  written=$(awk '$3 == "write" { w[$4] = 1 } END { print length(w) }' v.log)
  reads=$(python3 -c 'import json; print(json.load(open("v.json"))["jobs"][0]["read"]["total_ios"])')
  [ "$written" -lt 64 ] || fail "$args: no block written twice ($written distinct)"
  expect_eq "$args verify: reads = distinct blocks written" "$reads" "$written"
done
[ "$fails" -eq 0 ] && echo "ok: mapped continuations count as fio's"
[ "$fails" -eq 0 ]
