#!/usr/bin/env bash
# With randrepeat=1 (the default) and no randseed, every loop draws what the
# first did, as fio 3.33, whose clear_io_state re-seeds its generators at
# each loop start (docs/patterns.md, "Seeds"). Measured with fio's
# write_iolog: loop 2's offsets, directions and block sizes equal loop 1's
# (randread with and without the map, randrw, bssplit, lfsr,
# percentage_random, zoned; rw=rw rwmixread=80 loops=3: 323, 323, 122 I/Os);
# zipf, pareto and normal offsets go on; randrepeat=0 and randseed=N draw
# anew in every loop; time_based passes go on too. iobench's draws used to
# go on in every case (rw=rw loops=3: 324, 333, 111).
# $1: iobench binary, $2: source dir.
set -u
source "$2/tests/e2e/check.bash"  # fail: counts and goes on
bin=$(realpath "$1")
tmp=$(mktemp -d /dev/shm/iobench_loop_reseed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# Splits a log into loop files <prefix>.<clone>.<n> ("file dir offset length"
# per I/O); iobench closes the file at the end of each loop.
split_loops() {  # log, prefix
  rm -f "$2".j.*
  awk -v p="$2" '$3 == "open" { n[$2]++ }
    $3 == "read" || $3 == "write" || $3 == "trim" {
      c = $2; sub(/^.*\//, "", c); sub(/\.[0-9]+$/, "", c); print $2, $3, $4, $5 > (p "." c "." n[$2]) }' "$1"
}
run() {  # name, options
  local name=$1
  shift
  "$bin" --name=j --ioengine=null --size=1m --bs=4k "$@" --write_iolog="$name.log" \
    --output=/dev/null || fail "iobench $name"
  split_loops "$name.log" "$name"
}
# A queueing engine: fio 3.33 ends each loop of a random job without the map
# (or with sequential continuations, or a non-uniform distribution) at size
# bytes only when the engine queues its I/O; with one that completes inside
# its queue call (null, psync) the loops are one pass (loops_one_pass.sh).
# libaio on a file in the temp dir (named as null's, j.0.0); those cases are skipped without it.
qrun() {  # name, options
  local name=$1
  shift
  run "$name" --ioengine=libaio --iodepth=4 --filename="$tmp/j.0.0" "$@"
}
have_aio=0
"$bin" --name=probe --ioengine=libaio --filename="$tmp/j.0.0" --size=64k --rw=read \
  --output=/dev/null 2>/dev/null && have_aio=1
count() { wc -l <"$1" | tr -d ' '; }
same() {  # name, clone, loop a, loop b, what
  cmp -s "$1.$2.$3" "$1.$2.$4" ||
    fail "$1: loop $4 differs from loop $3 ($5); first lines: $(head -3 "$1.$2.$3" | tr '\n' '|') vs $(head -3 "$1.$2.$4" | tr '\n' '|')"
}
differ() {  # name, clone, loop a, loop b, column(s) to compare
  ! cmp -s <(cut -d' ' -f"$5" "$1.$2.$3") <(cut -d' ' -f"$5" "$1.$2.$4") ||
    fail "$1: loop $4 repeats loop $3 (columns $5); fio 3.33 draws anew here"
}

# Loops that repeat: offsets, directions and lengths, I/O for I/O.
if [ "$have_aio" = 1 ]; then
  qrun norandommap --rw=randread --norandommap --loops=2
  same norandommap j.0 1 2 "randread norandommap"
  [ "$(count norandommap.j.0.1)" = 256 ] || fail "norandommap: $(count norandommap.j.0.1) I/Os in loop 1"
  qrun bssplit --rw=randread --norandommap --bssplit=4k/50:16k/30:64k/20 --loops=2
  same bssplit j.0 1 2 "bssplit sizes"
  [ "$(cut -d' ' -f4 bssplit.j.0.1 | sort -u | wc -l)" = 3 ] || fail "bssplit: not 3 sizes"
  qrun percrand --rw=randread --percentage_random=50 --loops=2
  same percrand j.0 1 2 "percentage_random=50"
  qrun zoned --rw=randread --random_distribution=zoned:50/10:50/90 --loops=2
  same zoned j.0 1 2 "zoned"
else
  echo "skip: no libaio; norandommap, bssplit, percentage_random and zoned loops untested"
fi
run map --rw=randread --loops=2
same map j.0 1 2 "randread with the random map"
run randrw --rw=randrw --loops=3
same randrw j.0 1 2 "randrw"
same randrw j.0 1 3 "randrw"
run bsrange --rw=read --bsrange=4k-32k --loops=2
same bsrange j.0 1 2 "bsrange sizes of a sequential job"
run lfsr --rw=randread --random_generator=lfsr --loops=2
same lfsr j.0 1 2 "random_generator=lfsr"
run files --rw=randread --nrfiles=3 --file_service_type=random --loops=2
same files j.0 1 2 "file_service_type=random"
echo "ok: each loop repeats the first"

# rw=rw rwmixread=80 loops=3: fio 3.33 has loops of 323, 323 and 122 I/Os,
# the second a copy of the first and the third its start; the direction
# draws are iobench's own (324, 324, 120).
run rwmix --rw=rw --rwmixread=80 --loops=3
same rwmix j.0 1 2 "rw=rw rwmixread=80"
n1=$(count rwmix.j.0.1) n3=$(count rwmix.j.0.3)
cmp -s rwmix.j.0.3 <(head -n "$n3" rwmix.j.0.1) || fail "rwmix: loop 3 is not loop 1's start"
[ $((2 * n1 + n3)) = 768 ] || fail "rwmix: loops $n1, $n1, $n3 do not add up to 768"
echo "ok: rw=rw rwmixread=80 loops=3: $n1, $n1, $n3 I/Os"

# numjobs clones: each repeats its own loop; the clones differ.
run clones --rw=randrw --numjobs=2 --loops=2
same clones j.0 1 2 "clone 0"
same clones j.1 1 2 "clone 1"
! cmp -s <(cut -d' ' -f2- clones.j.0.1) <(cut -d' ' -f2- clones.j.1.1) || fail "clones: same draws"
echo "ok: clones repeat their own loops and differ from each other"

# Streams that go on in fio 3.33.
if [ "$have_aio" = 1 ]; then
  qrun zipf --rw=randread --norandommap --random_distribution=zipf:1.2 --bsrange=4k-16k --loops=2
  differ zipf j.0 1 2 3
  same_len=$(cmp -s <(cut -d' ' -f4 zipf.j.0.1) <(cut -d' ' -f4 zipf.j.0.2) && echo 1)
  [ "$same_len" = 1 ] || fail "zipf: the block sizes of loop 2 are not loop 1's"
  qrun pareto --rw=randread --norandommap --random_distribution=pareto:0.5 --loops=2
  differ pareto j.0 1 2 3
  qrun normal --rw=randread --norandommap --random_distribution=normal:20 --loops=2
  differ normal j.0 1 2 3
fi
run norepeat --rw=randrw --randrepeat=0 --loops=2
differ norepeat j.0 1 2 2-3
run allrand --rw=randrw --randrepeat=0 --allrandrepeat=1 --loops=2
differ allrand j.0 1 2 2-3
run seeded --rw=randrw --randseed=7 --loops=2
differ seeded j.0 1 2 2-3
run seeded1 --rw=randrw --randseed=7 --randrepeat=1 --loops=2
differ seeded1 j.0 1 2 2-3
echo "ok: zipf, pareto and normal offsets, randrepeat=0 and randseed go on"

# time_based: fio wraps the pass inside one loop and its draws go on. 16
# blocks per pass; the rate keeps the log short.
"$bin" --name=j --ioengine=null --size=64k --bs=4k --rw=randrw --time_based --runtime=200ms \
  --rate_iops=1000 --write_iolog=tb.log --output=/dev/null || fail "iobench time_based"
awk '$3 == "read" || $3 == "write" { print $3, $4 }' tb.log >tb.ios
[ "$(count tb.ios)" -ge 32 ] || fail "time_based: only $(count tb.ios) I/Os"
! cmp -s <(sed -n 1,16p tb.ios) <(sed -n 17,32p tb.ios) || fail "time_based: pass 2 repeats pass 1"
echo "ok: time_based passes go on"

# fio 3.33 itself, when installed: loop 2 of randrw repeats loop 1.
if command -v fio >/dev/null; then
  fio --name=j --ioengine=null --size=1m --bs=4k --rw=randrw --loops=2 --write_iolog=fio.log \
    --output=/dev/null || fail "fio randrw"
  awk '$3 == "read" || $3 == "write" { print $3, $4, $5 }' fio.log >fio.ios
  [ "$(count fio.ios)" = 512 ] || fail "fio: $(count fio.ios) I/Os"
  cmp -s <(head -256 fio.ios) <(tail -256 fio.ios) || fail "fio's loop 2 no longer repeats loop 1"
  echo "ok: fio 3.33 repeats its loops too"
fi
[ "$fails" -eq 0 ]
