#!/bin/bash
# What the data written and laid out looks like, against fio 3.33 on the
# same jobs: the fraction of distinct 4k blocks, zlib's ratio per 4k block
# (compression within a block) and per 16k piece (across blocks: a buffer
# written again with a few bytes scrambled compresses there).
#  - a reading job's layout was one 1 MiB chunk written over and over (256
#    distinct 4k blocks of 4096), and ignored dedupe_percentage;
#  - zero_buffers=1 beat buffer_compress_percentage and dedupe_percentage,
#    where fio makes the compressible or deduplicable data (in writes and
#    in the layout);
#  - dedupe_percentage=0, given, turns refill_buffers on in fio (fresh data
#    per write), also as a --sweep point; buffer_compress_percentage=0,
#    given, turns scrambling off (the same buffer every write);
#  - a dedupe working set that leaves too little to repeat is refused.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
stats() {  # FILE: "distinct z4k z16k", each x100 as an integer
  python3 - "$1" <<'PY'
import sys, zlib
d = open(sys.argv[1], "rb").read()
bs = 4096
blocks = [d[i:i + bs] for i in range(0, len(d) - bs + 1, bs)]
n = min(512, len(blocks))
z4 = sum(len(zlib.compress(b, 6)) for b in blocks[:n]) / (bs * n)
w = 16384
pieces = [d[i:i + w] for i in range(0, min(len(d), 2 << 20) - w + 1, w)]
z16 = sum(len(zlib.compress(p, 6)) for p in pieces) / (w * len(pieces))
print(round(100 * len(set(blocks)) / len(blocks)), round(100 * z4), round(100 * z16))
PY
}
in_range() {  # NAME VALUE LO HI
  [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || fail "$1: $2 not in $3..$4"
}
# check NAME "DIST_LO DIST_HI Z4_LO Z4_HI Z16_LO Z16_HI" ARGS...: runs the
# job with each tool (fio's side when fio_side) and checks file F's data.
check() {
  local name=$1 want=$2 t d z4 z16
  shift 2
  read -r dlo dhi z4lo z4hi z16lo z16hi <<<"$want"
  for t in $(tools); do
    rm -f F
    "$(cmd "$t")" --name=j --filename=F --bs=4k --output-format=terse "$@" >/dev/null 2>err.txt
    expect_eq "$t $name: exit ($(head -c 300 err.txt))" "$?" 0
    read -r d z4 z16 <<<"$(stats F)"
    in_range "$t $name: distinct %" "$d" "$dlo" "$dhi"
    in_range "$t $name: zlib % per 4k" "$z4" "$z4lo" "$z4hi"
    in_range "$t $name: zlib % per 16k" "$z16" "$z16lo" "$z16hi"
  done
}
# Layout of a reading job: every block distinct and incompressible. (A
# dedupe repeat is the block before again: 16k pieces compress.)
check "layout" "99 100 99 101 99 101" --rw=read --size=4m
check "layout, dedupe 50" "40 60 99 101 40 80" --rw=read --size=4m --dedupe_percentage=50
check "layout, zero + compress 50" "99 100 40 60 40 60" --rw=read --size=4m --zero_buffers=1 \
  --buffer_compress_percentage=50
check "layout, zero + dedupe 50" "40 60 99 101 40 80" --rw=read --size=4m --zero_buffers=1 \
  --dedupe_percentage=50
# Writes: compress and dedupe beat zero_buffers.
check "write, zero + compress 50" "99 100 40 60 40 60" --rw=write --size=4m --zero_buffers=1 \
  --buffer_compress_percentage=50
check "write, zero + dedupe 50" "40 60 99 101 40 80" --rw=write --size=4m --zero_buffers=1 \
  --dedupe_percentage=50
check "write, zero only" "0 1 0 2 0 2" --rw=write --size=4m --zero_buffers=1
# Given zeros: dedupe_percentage=0 refills (no compression across blocks),
# buffer_compress_percentage=0 stops scrambling (one buffer, written again).
check "write, dedupe 0" "99 100 99 101 99 101" --rw=write --size=4m --dedupe_percentage=0
check "write, compress 0" "0 1 99 101 0 40" --rw=write --size=4m --buffer_compress_percentage=0
check "write, default (scrambled)" "99 100 85 101 0 40" --rw=write --size=4m
# A sweep point is as if its value were in the job: the last point (0)
# wrote the file.
rm -f F
"$bin" --name=j --filename=F --bs=4k --rw=write --size=4m --sweep dedupe_percentage=50,0 \
  --output-format=terse >/dev/null 2>err.txt
expect_eq "sweep: exit ($(head -c 300 err.txt))" "$?" 0
read -r d z4 z16 <<<"$(stats F)"
in_range "sweep dedupe_percentage=0 point: distinct %" "$d" 99 100
in_range "sweep dedupe_percentage=0 point: zlib % per 16k" "$z16" 99 101

# Impossible working sets: refused before any I/O, as fio (exit 1 there).
cat >ws.fio <<'JOB'
[ws]
filename=W
rw=write
size=4m
dedupe_mode=working_set
dedupe_percentage=90
dedupe_working_set_percentage=50
JOB
"$bin" ws.fio >out.txt 2>err.txt
expect_eq "ws 90+50: exit" "$?" 2
grep -q "dedupe_percentage=90 (ws.fio:6)" err.txt || fail "ws 90+50: $(cat err.txt)"
grep -q "dedupe_working_set_percentage=50 (ws.fio:7)" err.txt || fail "ws 90+50: $(cat err.txt)"
[ -e W ] && fail "ws 90+50: the file was made"
"$bin" --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
  --dedupe_percentage=100 >out.txt 2>err.txt
expect_eq "ws 100+5: exit" "$?" 2
grep -q "dedupe_percentage=100 (<cmdline>)" err.txt || fail "ws 100+5: $(cat err.txt)"
for t in $(tools); do  # the boundary: 95 + 5 = 100 runs
  rm -f W
  "$(cmd "$t")" --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
    --dedupe_percentage=95 --output-format=terse >/dev/null 2>err.txt
  expect_eq "$t ws 95+5: exit ($(head -c 300 err.txt))" "$?" 0
  if fio_side && [ "$t" = iob ]; then
    fio --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
      --dedupe_percentage=96 >/dev/null 2>&1
    expect_eq "fio ws 96+5: exit" "$?" 1
  fi
done
[ "$fails" -eq 0 ]
