#!/bin/bash
# ctest-cost: 30
# ctest-labels: threads
# ioengine=posixaio (glibc aio_read/aio_write/aio_fsync) on real files: tmpfs
# (/dev/shm) and ext4 (/var/tmp) buffered, ext4 with direct=1, iodepth 1 and
# 16, randread/randwrite/randrw, verify=crc32c and fsync=N. Counts are exact
# (number_ios / io_size) and, when fio is installed, equal to fio 3.33's
# ioengine=posixaio on the same job. The helper threads glibc runs the I/O
# in are labelled in the report (iobench.helpers.aio_*, peak_threads).
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(realpath "$1")
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-posixaio.XXXXXX) || exit 1
shm=$(mktemp -d /dev/shm/iobench-posixaio.XXXXXX) || exit 1
trap 'cd /; rm -rf "$work" "$shm"' EXIT
cd "$work" || exit 1
fails=0
have_fio=0
fio_side && have_fio=1

# counts: "read ios/bytes write ios/bytes syncs error" of job 0
counts() {
  python3 -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print("r=%d/%d w=%d/%d sync=%d err=%d" % (j["read"]["total_ios"], j["read"]["io_bytes"],
      j["write"]["total_ios"], j["write"]["io_bytes"], j["sync"]["lat_ns"]["N"], j["error"]))' "$1"
}

# check LABEL WANT ARGS...: runs iobench (and fio) on the same job; WANT is
# the counts line, or "" to only compare with fio. NOFIO=1: iobench only.
check() {
  local label=$1 want=$2
  shift 2
  "$bin" --output-format=json "$@" >out.json 2>err.txt
  local rc=$? got
  got=$(counts out.json 2>/dev/null)
  if [ $rc -ne 0 ] || [ -s err.txt ] || { [ -n "$want" ] && [ "$got" != "$want" ]; }; then
    echo "FAIL $label: exit $rc, got '$got', want '$want'"; head -c 2000 err.txt
    fails=$((fails + 1))
    return
  fi
  if [ $have_fio = 1 ] && [ -z "${NOFIO:-}" ]; then
    local fgot
    fio --output-format=json "$@" >fio.json 2>/dev/null
    fgot=$(counts fio.json 2>/dev/null)
    if [ "$fgot" != "$got" ]; then
      echo "FAIL $label: fio '$fgot', iobench '$got'"; fails=$((fails + 1)); return
    fi
  fi
  echo "ok   $label: $got"
}

n=200
for dir in "$shm" "$work"; do
  for direct in 0 1; do
    [ $direct = 1 ] && [ "$dir" = "$shm" ] && continue  # tmpfs has no O_DIRECT
    f="$dir/data"
    for qd in 1 16; do
      for rw in randread randwrite; do
        if [ $rw = randread ]; then want="r=$n/$((n * 4096)) w=0/0 sync=0 err=0"; else
          want="r=0/0 w=$n/$((n * 4096)) sync=0 err=0"; fi
        check "$rw qd$qd direct=$direct $dir" "$want" --name=p --ioengine=posixaio \
          --filename="$f" --size=4m --bs=4k --rw=$rw --iodepth=$qd --direct=$direct \
          --number_ios=$n --randrepeat=1
      done
      # randrw: the read/write split is the job's seeded draw, the same for
      # every engine (iobench's draw differs from fio's for all engines, so
      # the reference is iobench's psync on the same job).
      "$bin" --output-format=json --name=p --ioengine=psync --filename="$f" --size=4m --bs=4k \
        --rw=randrw --direct=$direct --number_ios=$n >ref.json 2>/dev/null
      NOFIO=1 check "randrw qd$qd direct=$direct $dir" "$(counts ref.json)" --name=p \
        --ioengine=posixaio --filename="$f" --size=4m --bs=4k --rw=randrw --iodepth=$qd \
        --direct=$direct --number_ios=$n
      # io_size ends the job by bytes; verify reads every written block back.
      check "randwrite verify qd$qd direct=$direct $dir" \
        "r=256/1048576 w=256/1048576 sync=0 err=0" --name=p --ioengine=posixaio \
        --filename="$f" --size=4m --io_size=1m --bs=4k --rw=randwrite --iodepth=$qd \
        --direct=$direct --verify=crc32c --verify_state_save=0
    done
    rm -f "$f"
  done
done

# fsync=8 and fdatasync=8 go through aio_fsync(O_SYNC / O_DSYNC): 7 syncs
# for 64 writes, as psync and libaio in iobench and fio 3.33 (and fio's
# posixaio at iodepth=1). fio 3.33's posixaio issues more at depth (28 at
# iodepth=4), so the fio comparison runs at iodepth=1.
for qd in 1 4; do
  for s in fsync fdatasync; do
    nofio=1
    [ $qd = 1 ] && nofio=
    NOFIO=$nofio check "write $s=8 qd$qd" "r=0/0 w=64/262144 sync=7 err=0" --name=p \
      --ioengine=posixaio --filename="$work/s" --size=256k --bs=4k --rw=write --iodepth=$qd \
      --$s=8
  done
done
# Trims are done in the call (a hole punch in a file), as iobench's other
# async engines do; fio 3.33 issues BLKDISCARD on the file and fails (ENOTTY).
NOFIO=1 check "randtrim" "r=0/0 w=0/0 sync=0 err=0" --name=p --ioengine=posixaio \
  --filename="$work/s" --size=256k --bs=4k --rw=randtrim --iodepth=4 --number_ios=16
t=$(python3 -c 'import json; j = json.load(open("out.json"))["jobs"][0]["trim"]
print("%d/%d" % (j["total_ios"], j["io_bytes"]))')
[ "$t" = "16/65536" ] || { echo "FAIL randtrim: trims $t, want 16/65536"; fails=$((fails + 1)); }

# The I/O runs in glibc's helper threads: their CPU is labelled (posixaio
# usr/sys in the helpers line, iobench.helpers.aio_* in JSON) and counted in
# cpu/IO, and the peak thread count sees at least one of them.
"$bin" --output-format=json --name=p --ioengine=posixaio --filename="$work/h" --size=4m \
  --bs=4k --rw=randread --iodepth=16 --number_ios=2000 >out.json 2>err.txt
python3 - out.json <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["iobench"]["helpers"]
aio = j["aio_user_us"] + j["aio_sys_us"]
if aio <= 0 or j["peak_threads"] < 1:
    print("FAIL helper CPU not labelled:", j); sys.exit(1)
print("ok   helpers: aio usr %d us, sys %d us, peak %d threads" %
      (j["aio_user_us"], j["aio_sys_us"], j["peak_threads"]))
PY
"$bin" --name=p --ioengine=posixaio --filename="$work/h" --size=4m --bs=4k --rw=randread \
  --iodepth=16 --number_ios=2000 >normal.txt 2>err.txt
if grep -q "helpers      : io-wq usr=0.0%, sys=0.0%, sqpoll=0.0%, posixaio usr=" normal.txt; then
  echo "ok   normal report: $(grep 'helpers      :' normal.txt)"
else
  echo "FAIL normal report has no posixaio helpers line"; grep -A2 "cpu  " normal.txt
  fails=$((fails + 1))
fi

# --enghelp names it; nowait is not one of its options.
"$bin" --enghelp 2>&1 | grep -qP "^\tposixaio\t" || { echo "FAIL --enghelp"; fails=$((fails + 1)); }
if "$bin" --name=p --ioengine=posixaio --filename="$work/h" --size=4m --nowait=1 \
  >/dev/null 2>err.txt; then
  echo "FAIL nowait=1 accepted for posixaio"; fails=$((fails + 1))
fi
echo "$fails failed"
[ "$fails" -eq 0 ]
