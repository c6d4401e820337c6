#!/usr/bin/env bash
# Offsets and lengths through the CLI, read from write_iolog (docs/patterns.md):
#  - bssplit sizes are rounded down to a multiple of the direction's smallest,
#    as fio 3.33 does unless bs_unaligned: 4k/50:6k/50 reads 4k only, and the
#    log equals fio's line by line (times aside) when fio is installed;
#  - time_based rw=rw over one file: each direction wraps at the region's end
#    on its own, so writes (20 %) reach the last block too, as in fio.
# $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
tmp=$(mktemp -d /dev/shm/iobench_pattern_iolog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
notimes() { awk 'NR == 1 { print; next } { $1 = ""; sub(/^ /, ""); print }' "$1"; }
# "count length" per direction of a log
lengths() { awk '$3 == "read" || $3 == "write" { print $3, $5 }' "$1" | sort | uniq -c | tr -s ' '; }

split_case() {  # name, expected "count dir length" lines, fio's log too (0/1), job options
  local name=$1 want=$2 same=$3
  shift 3
  "$bin" --name=j --ioengine=null --size=96k "$@" --write_iolog="ib_$name.log" --output=/dev/null ||
    fail "iobench $name"
  local got
  got=$(lengths "ib_$name.log")
  [ "$got" = "$want" ] || fail "$name: lengths '$got', want '$want'"
  if [ "$same" = 1 ] && command -v fio >/dev/null; then
    fio --name=j --ioengine=null --size=96k "$@" --write_iolog="fio_$name.log" --output=/dev/null ||
      fail "fio $name"
    diff <(notimes "fio_$name.log") <(notimes "ib_$name.log") >"diff_$name" ||
      fail "write_iolog $name differs from fio's: $(head -20 "diff_$name")"
  fi
  echo "ok: $name"
}
split_case split46 " 24 read 4096" 1 --rw=read --bssplit=4k/50:6k/50
split_case split34 " 32 read 3072" 1 --rw=read --bssplit=3k/50:4k/50
# (Random draws are iobench's own: the counts are fio's, the order is not.)
split_case splitrand " 24 read 4096" 0 --rw=randread --bssplit=4k/50:6k/50
split_case splitrw " 7 read 4096
 9 write 8192" 0 --rw=rw --randseed=7 --bssplit=4k/50:6k/50,8k/50:12k/50

# bs_unaligned keeps the sizes: both appear (the draws are iobench's own).
"$bin" --name=j --ioengine=null --size=96k --rw=read --bssplit=4k/50:6k/50 --bs_unaligned=1 \
  --write_iolog=unaligned.log --output=/dev/null || fail "iobench unaligned"
[ "$(awk '$3 == "read" { print $5 }' unaligned.log | sort -u | tr '\n' ' ')" = "4096 6144 " ] ||
  fail "bs_unaligned: lengths $(lengths unaligned.log)"
echo "ok: bs_unaligned keeps 6k"

# time_based rw=rw rwmixread=80 on 1 MiB: fio's reads and writes each reach
# offset 1044480 and cover all 256 blocks; iobench's writes used to stop at
# 274432 (68 blocks). The rate keeps the log short (~6,000 lines); 1,280
# I/Os are enough to cover the region.
"$bin" --name=t --ioengine=null --size=1m --rw=rw --rwmixread=80 --time_based --runtime=250ms \
  --rate_iops=20000,5000 --write_iolog=tb.log --output=/dev/null || fail "iobench time_based"
cover=$(awk '$3 == "read" || $3 == "write" { if ($4 > m[$3]) m[$3] = $4; s[$3 " " $4] = 1 }
  END { for (k in s) { split(k, a, " "); n[a[1]]++ }
        printf "read %d %d write %d %d", m["read"], n["read"], m["write"], n["write"] }' tb.log)
[ "$cover" = "read 1044480 256 write 1044480 256" ] ||
  fail "time_based rw=rw: '$cover' (direction, last offset, distinct offsets), want each to cover 256 blocks up to 1044480"
# Each direction walks on from where it was: an offset is its previous end,
# or 0 after its previous I/O ended at the region's end.
awk '$3 == "read" || $3 == "write" {
       d = $3
       if (d in next_off && $4 != next_off[d] && !($4 == 0 && next_off[d] == 1048576)) {
         print "line " NR ": " d " at " $4 ", expected " next_off[d]; bad = 1; exit 1
       }
       next_off[d] = $4 + $5
     }' tb.log || fail "time_based rw=rw: a direction did not walk on on its own"
echo "ok: time_based rw=rw covers the region in each direction"

# percentage_random=0 norandommap on 26k of 4k blocks: the continuation from
# 24k does not fit and ends the pass, as in fio 3.33 (6 reads, 0 to 20k; the
# log equals fio's when fio is installed). iobench used to read a 7th block
# at random.
"$bin" --name=j --ioengine=null --size=26k --rw=randread --percentage_random=0 --norandommap=1 \
  --write_iolog=pr0.log --output=/dev/null || fail "iobench percentage_random=0"
got=$(awk '$3 == "read" { printf "%d ", $4 / 1024 }' pr0.log)
[ "$got" = "0 4 8 12 16 20 " ] || fail "percentage_random=0 size=26k: offsets (k) $got, want 0 to 20"
if command -v fio >/dev/null; then
  fio --name=j --ioengine=null --size=26k --rw=randread --percentage_random=0 --norandommap=1 \
    --write_iolog=pr0_fio.log --output=/dev/null || fail "fio percentage_random=0"
  diff <(notimes pr0_fio.log) <(notimes pr0.log) >diff_pr0 ||
    fail "percentage_random=0: write_iolog differs from fio's: $(head -20 diff_pr0)"
fi
echo "ok: a continuation that does not fit ends the pass"

# rw=rw loops=2 rwmixread=80 size=1m: as fio 3.33, the first loop ends when
# the reads reach the region's end (fio: 256 reads and 67 writes, then the
# 189 I/Os left of 2 MiB, both directions from 0 again); iobench's loops
# were 256 I/Os each. The writes drawn meanwhile are each tool's own.
loops_shape() {  # per loop: "reads writes firstR firstW"; then the total
  awk '$3 == "close" { printf "%d %d %d %d; ", r, w, fr, fw; t += r + w; r = w = 0; fr = fw = -1 }
       $3 == "open" { fr = fw = -1 }
       $3 == "read" { if (fr < 0) fr = $4; r++ }
       $3 == "write" { if (fw < 0) fw = $4; w++ }
       END { print "total " t }' "$1"
}
"$bin" --name=j --ioengine=null --size=1m --rw=rw --rwmixread=80 --loops=2 \
  --write_iolog=rwloops.log --output=/dev/null || fail "iobench rw=rw loops=2"
shape=$(loops_shape rwloops.log)
[[ $shape =~ ^256\ ([0-9]+)\ 0\ 0\;\ ([0-9]+)\ ([0-9]+)\ 0\ 0\;\ total\ 512$ ]] ||
  fail "rw=rw loops=2: loops '$shape', want a first loop of 256 reads, both loops from 0, 512 I/Os"
if command -v fio >/dev/null; then
  fio --name=j --ioengine=null --size=1m --rw=rw --rwmixread=80 --loops=2 \
    --write_iolog=rwloops_fio.log --output=/dev/null || fail "fio rw=rw loops=2"
  fshape=$(loops_shape rwloops_fio.log)
  [[ $fshape =~ ^256\ ([0-9]+)\ 0\ 0\;\ ([0-9]+)\ ([0-9]+)\ 0\ 0\;\ total\ 512$ ]] ||
    fail "rw=rw loops=2: fio's loops '$fshape' no longer have the shape this test expects"
fi
echo "ok: rw=rw loops end when a direction reaches the end ($shape)"
