#!/bin/bash
# rw=trimwrite / randtrimwrite: each trim is followed by a write of the same
# block, and the pair counts once towards number_ios, io_size and size x
# loops, as in fio 3.33 (iobench counted the write too, so number_ios=5 gave
# 3 trims and 2 writes, the last trim without its write). Counts and order
# come from write_iolog on the null engine; the expected counts are fio
# 3.33's, and when fio is installed the same jobs run with fio too.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
source "$(dirname "$0")/signal_wait.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0

# pairs LOG: "TRIMS WRITES" after checking that each trim is followed by a
# write of the same offset and length, and each write follows its trim.
pairs() {
  python3 - "$1" <<'PY'
import sys
ios = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5]
ios = [(w[2], int(w[3]), int(w[4])) for w in ios if w[2] in ("trim", "write")]
for i, (op, off, ln) in enumerate(ios):
    if op == "trim":
        nxt = ios[i + 1] if i + 1 < len(ios) else None
        if nxt != ("write", off, ln):
            sys.exit("trim %d+%d at I/O %d is followed by %s" % (off, ln, i, nxt))
    elif i == 0 or ios[i - 1] != ("trim", off, ln):
        sys.exit("write %d+%d at I/O %d does not follow its trim" % (off, ln, i))
print(sum(1 for o in ios if o[0] == "trim"), sum(1 for o in ios if o[0] == "write"))
PY
}

# json_counts: "TRIMS WRITES" from the JSON report of one job.
json_counts() {
  python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["trim"]["total_ios"], j["write"]["total_ios"])'
}

# check WANT_PAIRS JOB OPTIONS...: iobench's log must pair every trim with
# its write and hold WANT_PAIRS pairs, as its report; fio's report the same
# counts (fio's iolog at iodepth > 1 lists I/Os twice: only its report is read).
check() {
  local want="$1 $1" got tool
  shift
  rm -f io.log
  if ! "$bin" --name=x --ioengine=null --write_iolog=io.log --output-format=json "$@" >out 2>err; then
    echo "FAIL iobench $*: exit $?"; cat err; fails=$((fails + 1)); return
  fi
  for got in "$(pairs io.log 2>&1)" "$(json_counts <out)"; do
    [ "$got" = "$want" ] && continue
    echo "FAIL iobench $*: want $want (trims writes), got $got"; fails=$((fails + 1)); return
  done
  echo "ok   iobench $* ($got)"
  fio_side || return
  got=$(fio --name=x --ioengine=null --output-format=json "$@" 2>err | json_counts)
  if [ "$got" != "$want" ]; then
    echo "FAIL fio $*: want $want (trims writes), got $got"; cat err; fails=$((fails + 1))
  else
    echo "ok   fio $* ($got)"
  fi
}

check 5 --size=64k --rw=trimwrite --number_ios=5
check 3 --size=64k --rw=randtrimwrite --number_ios=3
check 8 --size=64k --rw=trimwrite --io_size=32k
check 10 --size=64k --rw=randtrimwrite --io_size=40k
check 4 --size=10000 --rw=trimwrite --loops=2
check 5 --size=64k --rw=trimwrite --number_ios=5 --fsync=2
check 7 --size=64k --rw=randtrimwrite --number_ios=7 --iodepth=4
# io_size above size: fio's next pass starts only while the bytes moved,
# trims and writes both, are below io_size: one pass here.
check 16 --size=64k --rw=trimwrite --io_size=100k
# randtrimwrite with norandommap writes io_size bytes a loop.
check 32 --size=64k --rw=randtrimwrite --norandommap --io_size=128k
check 48 --size=64k --rw=randtrimwrite --norandommap --io_size=96k --loops=2
# A holed walk (trimwrite:4k) that wraps at the file's end never ends fio's
# do_io, whose limit counts the writes alone: io_size bytes of writes (and
# x loops). iobench used to stop at 8 pairs, counting trims and writes as
# fio's keep_running does after a walk that stopped short (size=28k: the
# last write ends at the file's end, 8 pairs).
check 16 --bs=4k --size=32k --rw=trimwrite:4k --io_size=64k
check 12 --bs=4k --size=32k --rw=trimwrite:4k --io_size=48k
check 32 --bs=4k --size=32k --rw=trimwrite:4k --io_size=64k --loops=2
check 25 --bs=4k --size=32k --rw=trimwrite:8k --io_size=100k
check 8 --bs=4k --size=28k --rw=trimwrite:4k --io_size=64k
# The step's block does not fit in the file: the walk stops there too.
check 2 --bs=4k --size=10000 --rw=trimwrite:4k --loops=2

# Trims and writes of different block sizes (fio 3.33's set_rw_ddir): each
# direction walks the file with its own size, and the next I/O is a trim
# when the last write started where the last trim did. Only the writes'
# bytes count towards size and io_size; number_ios counts trims and writes,
# twice over. iobench used to write each trim's block again, ignoring the
# write bs (bs=4k,8k,16k on 64k: 4 trims, 4 writes of 16k; fio 4 and 7 of 8k).
# walk WANT_SEQ WANT_COUNTS JOB OPTIONS...: iobench's write_iolog as
# "T<off k>/<len k>" and "W..." (first 24 I/Os), and its report's "trims
# writes written_k" (fio's report too).
walk() {
  local want_seq=$1 want=$2 got t
  shift 2
  for t in iob fio; do
    [ $t = fio ] && ! fio_side && continue
    rm -f io.log
    if [ $t = iob ]; then
      "$bin" --name=x --ioengine=null --write_iolog=io.log --output-format=json "$@" >out 2>err
    else
      fio --name=x --ioengine=null --write_iolog=io.log --output-format=json "$@" >out 2>err
    fi
    got=$(python3 -c '
import json, sys
t = open("out").read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["trim"]["total_ios"], j["write"]["total_ios"], j["write"]["io_bytes"] // 1024)')
    [ "$got" = "$want" ] || { echo "FAIL $t $*: want $want (trims writes written_k), got $got"; fails=$((fails + 1)); }
    got=$(awk '$3 == "trim" || $3 == "write" {
                 printf "%s%d/%d ", ($3 == "trim" ? "T" : "W"), $4 / 1024, $5 / 1024 }' io.log |
          cut -d" " -f1-24 | sed 's/ *$//')
    if [ "$got" = "$want_seq" ]; then
      echo "ok   $t $* ($want)"
    else
      echo "FAIL $t $*: order"; echo "  want $want_seq"; echo "  got  $got"; fails=$((fails + 1))
    fi
  done
}
walk "T0/16 W0/8 T16/16 W8/8 W16/8 T32/16 W24/8 W32/8 T48/16 W40/8 W48/8" "4 7 56" \
  --size=64k --rw=trimwrite --bs=4k,8k,16k
walk "T0/8 W0/16 T8/8 W16/16 W32/16 W48/16" "2 4 64" --size=64k --rw=trimwrite --bs=4k,16k,8k
walk "T0/12 W0/4 T12/12 W4/4 W8/4 W12/4 T24/12 W16/4 W20/4 W24/4 T36/12 W28/4 W32/4 W36/4 T48/12 W40/4 W44/4 W48/4" \
  "5 13 52" --size=64k --rw=trimwrite --bs=4k,4k,12k
walk "T0/16 W0/4 T16/16 W4/4 W8/4 W12/4 W16/4 T32/16 W20/4 W24/4 W28/4 W32/4 T48/16 W36/4 W40/4 W44/4 W48/4 T64/16 W52/4 W56/4 W60/4 W64/4 T80/16 W68/4" \
  "64 253 1012" --size=1m --rw=trimwrite --bssplit=,,16k
walk "T0/16 W0/8 T16/16 W8/8 W16/8 T32/16" "3 3 24" --size=64k --rw=trimwrite --bs=4k,8k,16k --number_ios=3
walk "T0/16 W0/8 T16/16 W8/8 W16/8 T32/16 W24/8" "3 4 32" --size=64k --rw=trimwrite --bs=4k,8k,16k --io_size=32k
walk "T0/16 W0/8 T16/16 W8/8 W16/8 T32/16 W24/8 W32/8 T48/16 W40/8 W48/8 T0/16 W0/8 T16/16 W8/8 W16/8 T32/16 W24/8 W32/8 T48/16 W40/8 W48/8" \
  "8 14 112" --size=64k --rw=trimwrite --bs=4k,8k,16k --loops=2
# The same size: pairs, as before.
walk "T0/8 W0/8 T8/8 W8/8 T16/8 W16/8 T24/8 W24/8 T32/8 W32/8 T40/8 W40/8 T48/8 W48/8 T56/8 W56/8" \
  "8 8 64" --size=64k --rw=trimwrite --bs=4k,8k,8k
# randtrimwrite: the write repeats its trim's block whatever the write bs
# (fio's too; the pairs are checked, not the random offsets).
check 4 --size=64k --rw=randtrimwrite --bs=4k,8k,16k

# A trim-only job on an async engine (which trims in the call, so its queue
# never fills): runtime and SIGINT must still end it. It never checked the
# clock and ran until SIGKILL with time_based (fio: 300 ms). tmpfs punches
# holes for trims.
if [ -d /dev/shm ]; then
  truncate -s 1m /dev/shm/iobench-trimq.$$
  for eng in io_uring libaio; do
    timeout -s KILL 20 "$bin" --name=t --filename=/dev/shm/iobench-trimq.$$ --size=64k \
      --ioengine=$eng --rw=trim --time_based --runtime=200ms >out 2>err
    rc=$?
    if [ $rc -eq 0 ]; then
      # Ended by its runtime: at least 200 ms measured (the upper end is
      # the hang guard above, never a timing bound: a loaded machine ran
      # it for 320 ms).
      ran=$(sed -n 's/.*run=\([0-9]*\)-.*/\1/p' out | head -1)
      [ "${ran:-0}" -ge 200 ] || { echo "FAIL $eng trim runtime: $(grep run= out)"; fails=$((fails + 1)); }
    elif grep -q -i "not supported\|io_uring_setup\|io_setup" err; then
      echo "skip $eng: $(head -c 200 err)"
    else
      echo "FAIL $eng trim-only time_based: exit $rc (137: killed after 20 s) $(head -c 200 err)"
      fails=$((fails + 1))
    fi
  done
  "$bin" --name=t --filename=/dev/shm/iobench-trimq.$$ --size=64k --ioengine=io_uring --rw=trim \
    --time_based --runtime=60s >out 2>err &
  pid=$!
  wait_catching $pid 2 || echo "note: iobench did not catch SIGINT within 20 s"
  sleep 0.3
  kill -INT $pid
  for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid
    echo "FAIL io_uring trim-only job ignored SIGINT"
    fails=$((fails + 1))
  fi
  wait $pid 2>/dev/null
  rm -f /dev/shm/iobench-trimq.$$
fi

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
