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

[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
