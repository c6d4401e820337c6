#!/bin/bash
# I/O counts of the run core on real files (psync on /dev/shm), each checked
# against fio 3.33 by hand: sizes that are not a multiple of bs, fsync with
# loops, a short read that ends at EOF, filesize=lo-hi. When fio is
# installed, the same jobs are also run with fio and must give the same
# counts.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
[ -d /dev/shm ] && [ -w /dev/shm ] || { echo "skip: no writable /dev/shm"; exit 77; }
work=$(mktemp -d /dev/shm/iobench-counts.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0

# "reads,writes,syncs,short reads" from the JSON of one job
counts() {
  python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print("%d,%d,%d,%d" % (j["read"]["total_ios"], j["write"]["total_ios"],
                       j["sync"]["total_ios"], j["read"].get("short_ios", 0)))'
}

# setup: "big N" makes N files j.0.K of 1 MiB, "short" one of 6000 bytes,
# "none" nothing.
setup() {
  rm -f "$work"/j.*
  case $1 in
    big) for ((k = 0; k < $2; k++)); do head -c 1048576 /dev/zero >"$work/j.0.$k"; done ;;
    short) head -c 6000 /dev/zero >"$work/j.0.0" ;;
  esac
}

# check WANT SETUP... -- JOB OPTIONS...
check() {
  local want=$1 got tool
  shift
  local setup_args=()
  while [ "$1" != -- ]; do setup_args+=("$1"); shift; done
  shift
  for tool in iobench fio; do
    if [ $tool = fio ]; then fio_side || continue; fi
    setup "${setup_args[@]}"
    local exe=$bin
    [ $tool = fio ] && exe=fio
    got=$("$exe" --name=j --directory="$work" --ioengine=psync --output-format=json "$@" \
          2>"$work/err" | counts)
    if [ "$got" != "$want" ]; then
      echo "FAIL $tool $*: want $want, got $got"; cat "$work/err"; fails=$((fails + 1))
    else
      echo "ok   $tool $* ($got)"
    fi
  done
}

# size= not a multiple of bs: on to the first I/O that reaches size, as long
# as it fits in the file; size x loops over the job.
check 2,0,0,0 big 1 -- --size=100k --bs=64k --rw=read
check 3,0,0,0 big 1 -- --size=10000 --bs=4k --rw=read
check 5,0,0,0 big 1 -- --size=10000 --bs=4k --rw=read --loops=2
check 2,0,0,0 none -- --size=10000 --bs=4k --rw=read
check 64,0,0,0 big 3 -- --size=256k --nrfiles=3 --bs=4k --rw=read
check 32,0,0,0 big 3 -- --size=256k --nrfiles=3 --bs=8k --rw=read
check 63,0,0,0 none -- --size=256k --nrfiles=3 --bs=4k --rw=read
# fsync=N with loops: the sync a loop's last write owes comes twice.
check 0,48,13,0 none -- --size=64k --bs=4k --rw=write --loops=3 --fsync=4
check 0,80,13,0 none -- --size=64k --bs=4k --rw=randwrite --loops=5 --fsync=8
check 0,48,9,0 none -- --size=64k --bs=4k --rw=write --loops=3 --fsync=5
# A short read whose rest finds EOF is still issued.
check 2,0,0,1 short -- --size=8k --bs=4k --rw=read --create_on_open=1

# filesize=lo-hi: each file its own size, in [lo, hi), a multiple of bs,
# from the seed (fio draws with another generator: not compared).
sizes() {
  setup none
  "$bin" --name=j --directory="$work" --ioengine=psync --nrfiles=5 --filesize=100k-300k \
    --rw=write --bs=4k "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; return 1; }
  stat -c %s "$work"/j.0.* | tr '\n' ' '
}
a=$(sizes) b=$(sizes) c=$(sizes --randseed=7)
python3 - "$a" "$b" "$c" <<'EOF' || fails=$((fails + 1))
import sys
a, b, c = (list(map(int, s.split())) for s in sys.argv[1:])
ok = (len(a) == 5 and a == b and a != c and len(set(a)) >= 4 and
      all(s % 4096 == 0 and 100 * 1024 <= s < 300 * 1024 for s in a + c))
print(("ok  " if ok else "FAIL") + " filesize=100k-300k: %s, randseed=7: %s" % (a, c))
sys.exit(0 if ok else 1)
EOF

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
