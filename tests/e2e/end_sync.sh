#!/usr/bin/env bash
# end_fsync and fsync_on_close as fio 3.33 does them (its do_io ends each
# loop of a writing job with one fsync per file, inside the job's time):
#  - counted with strace on the data files only: a write job syncs once per
#    file and loop, a read job never, both options together once, a verify
#    phase's own sync is not repeated, time_based once at the end;
#  - a failing sync fails the job (exit 1) and names the option and file,
#    for fsync_on_close too (it was ignored).
# Compared with fio on the same job when fio is installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
source "$2/tests/e2e/fio_side.bash"
tmp=$(mktemp -d /var/tmp/iobench_endsync.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# A failing sync (fsync on /dev/null is EINVAL): exit 1, the option and the
# file named.
for opt in end_fsync fsync_on_close; do
  "$bin" --name=w --filename=/dev/null --rw=write --size=64k --$opt=1 --output-format=terse \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || fail "$opt on /dev/null: exit $rc, want 1"
  grep -q "$opt failed for file /dev/null: Invalid argument" "$tmp/err" ||
    fail "$opt on /dev/null: $(cat "$tmp/err")"
done
# The sync before a verify phase names itself and the file too.
"$bin" --name=w --filename=/dev/null --rw=write --size=64k --verify=crc32c --output-format=terse \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && grep -q "the fsync before the verify phase failed for file /dev/null" "$tmp/err" ||
  fail "verify on /dev/null: exit $rc: $(cat "$tmp/err")"

# fsync=5 over 20 writes and loops=2 (docs/engines.md): the engines that
# complete each I/O in the call sync after writes 5, 10, 15 and 20 of the
# first loop and again as the second starts (fio 3.33 does that second one
# on the descriptor it reopens), then after 25, 30 and 35: 8. The queued
# engines sync once at the loop boundary: 7. fio's vsync queues its I/O
# (it merges adjacent requests into one writev at commit), so it goes as
# the queued engines there: 7 against iobench's 8. The JSON sync count.
sync_count() {  # TOOL ENGINE
  rm -f "$tmp/s5"
  job_counts "$tmp/err" "$1" --name=s --filename="$tmp/s5" --ioengine="$2" --rw=write \
    --size=80k --bs=4k --fsync=5 --loops=2 | awk '{print $1 == 0 ? $6 : "error " $1}'
}
for e in sync psync vsync pvsync pvsync2 mmap null libaio posixaio io_uring; do
  case $e in libaio | posixaio | io_uring) want=7 ;; *) want=8 ;; esac
  got=$(sync_count "$bin" $e)
  [ "$got" = "$want" ] || fail "fsync=5 loops=2 $e: $got syncs, want $want"
  if fio_side && [ $e != null ]; then
    [ $e = vsync ] && want=7
    got=$(sync_count fio $e)
    [ "$got" = "$want" ] || fail "fio fsync=5 loops=2 $e: $got syncs, want $want"
  fi
done

# sync_file_range every 4 writes over 20 writes and loops=2: the engines
# that complete each I/O in the call sync after writes 4..20 of the first
# loop; the sync that starts the second loop finds nothing written since, so
# fio 3.33 makes no call for it but counts it: 9 calls, 10 in the JSON sync
# latency (iobench said 9: it made the first loop's last call in the
# second). The queued engines make that call as the second loop starts: 9,
# and so does vsync, as fio's (which queues).
sfr_count() {  # TOOL ENGINE [OPTS]: the JSON sync lat N
  local tool=$1 engine=$2
  shift 2
  rm -f "$tmp/sfr"
  "$tool" "$@" --name=s --filename="$tmp/sfr" --ioengine="$engine" --rw=write --size=80k --bs=4k \
    --sync_file_range=write,wait_after:4 --loops=2 --output-format=json 2>"$tmp/err" |
    python3 -c 't = open(0).read(); import json; print(json.loads(t[t.index("{"):])["jobs"][0]["sync"]["lat_ns"]["N"])'
}
for e in sync psync vsync pvsync pvsync2 libaio posixaio; do
  case $e in vsync | libaio | posixaio) want=9 ;; *) want=10 ;; esac
  got=$(sfr_count "$bin" $e)
  [ "$got" = "$want" ] || fail "sync_file_range=write,wait_after:4 loops=2 $e: N=$got, want $want"
  if fio_side; then
    got=$(sfr_count fio $e --thread)
    [ "$got" = "$want" ] || fail "fio sync_file_range loops=2 $e: N=$got, want $want"
  fi
done
if command -v strace >/dev/null; then
  rm -f "$tmp/sfr"
  strace -f -e trace=sync_file_range -o "$tmp/trace" "$bin" --name=s --filename="$tmp/sfr" \
    --rw=write --size=80k --bs=4k --sync_file_range=write,wait_after:4 --loops=2 \
    --output-format=terse >/dev/null 2>&1
  got=$(grep -c 'sync_file_range(' "$tmp/trace")
  [ "$got" = 9 ] || fail "psync sync_file_range loops=2: $got calls, want 9 (fio's)"
fi

if ! command -v strace >/dev/null; then
  echo "note: strace not installed; the sync counts are not checked"
  [ $fails -eq 0 ]
  exit
fi
# syncs TOOL ARGS...: fsync/fdatasync calls on the job's data files.
syncs() {
  local tool=$1
  shift
  for f in "$tmp/d.0" "$tmp/d.1"; do head -c 1048576 /dev/zero >"$f"; done
  # LeakSanitizer cannot work under ptrace (the ASan stage): off for these.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -y -e trace=fsync,fdatasync -o "$tmp/trace" "$tool" --name=a --size=1m \
    --filename_format="$tmp/d.\$filenum" --output-format=terse "$@" >/dev/null 2>"$tmp/err" ||
    { echo "exit $?: $(head -c 300 "$tmp/err")"; return; }
  grep -c "sync([0-9]*<$tmp/d\.[01]>)" "$tmp/trace"
}
check() {
  local want=$1
  shift
  local got
  got=$(syncs "$bin" "$@")
  [ "$got" = "$want" ] || fail "iobench $*: $got syncs of the data files, want $want"
  if fio_side; then
    got=$(syncs fio "$@")
    [ "$got" = "$want" ] || fail "fio $*: $got syncs of the data files, want $want"
  fi
}
check 1 --rw=write --end_fsync=1
check 1 --rw=write --fsync_on_close=1
check 1 --rw=write --end_fsync=1 --fsync_on_close=1
check 0 --rw=read --end_fsync=1
check 0 --rw=read --fsync_on_close=1
check 2 --rw=write --fsync_on_close=1 --nrfiles=2
check 3 --rw=write --end_fsync=1 --loops=3
check 2 --rw=write --end_fsync=1 --loops=2 --unlink_each_loop=1
check 1 --rw=write --end_fsync=1 --verify=crc32c
check 2 --rw=randwrite --end_fsync=1 --loops=2 --verify=crc32c
check 1 --rw=write --end_fsync=1 --time_based --runtime=200ms
check 1 --rw=write --fsync=4 --end_fsync=1 --size=16k
# Loops left when the job's I/O ran out (psync's first loop writes the
# whole file, io_size x loops bytes; number_ios x loops I/Os): fio runs one
# more, empty loop, which syncs again (once, however many loops are left).
check 2 --rw=write --end_fsync=1 --io_size=512k --loops=2
check 2 --rw=write --end_fsync=1 --io_size=256k --loops=4
check 2 --rw=write --end_fsync=1 --number_ios=4 --loops=3

# fsync=N over several files: each sync takes the file of the I/O that would
# come next, its turn in the round robin, as fio's does, so every file is
# synced with N=2 (the last written file, always d.1 with an even N, left
# d.0 never synced).
order() {
  local tool=$1
  shift
  rm -f "$tmp"/d.*
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -y -e trace=fsync,fdatasync,sync_file_range -o "$tmp/trace" "$tool" --name=a \
    --size=64k --nrfiles=2 --rw=write --filename_format="$tmp/d.\$filenum" \
    --output-format=terse "$@" >/dev/null 2>"$tmp/err" || { echo "exit $?"; return; }
  grep -o "([0-9]*<$tmp/d\.[01]>" "$tmp/trace" | sed 's/.*d\.//; s/>//' | tr -d '\n'
}
# fsync=3: the sync takes the turn of file 0's write (0 1 0, sync 1, 0 1
# 0, sync 1, ...): file 1 each time.
for sync in --fsync=2 --fsync=4 --fdatasync=2 --sync_file_range=write:2 --fsync=3; do
  want=0101010
  [ $sync = --fsync=4 ] && want=010
  [ $sync = --fsync=3 ] && want=11111
  for t in "$bin" $(fio_side && echo fio); do
    got=$(order "$t" $sync)
    [ "$got" = "$want" ] || fail "$(basename "$t") nrfiles=2 $sync: synced files $got, want $want"
  done
done
# sync_file_range=write:1 over two files: a sync can take the turn of a file
# with nothing written since its last one. That empty range makes no call
# (fio's do_sync_file_range); io_uring sent it to the kernel as offset 2^64-1
# length 1 and its EINVAL failed the job after 2 writes (fio: 16, no error).
for e in psync libaio io_uring; do
  rm -f "$tmp"/e.*
  out=$("$bin" --name=a --ioengine=$e --iodepth=2 --size=64k --bs=4k --nrfiles=2 --rw=write \
    --filename_format="$tmp/e.\$filenum" --sync_file_range=write:1 --output-format=json \
    2>"$tmp/err")
  rc=$?
  if [ $e = io_uring ] && [ $rc -ne 0 ] && grep -q "io_uring" "$tmp/err" &&
    ! grep -q "sync_file_range" "$tmp/err"; then
    echo "skip io_uring: $(head -c 200 "$tmp/err")"
    continue
  fi
  got=$(printf '%s' "$out" | python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]
print(j["error"], j["write"]["total_ios"])' 2>/dev/null)
  [ "$rc $got" = "0 0 16" ] ||
    fail "$e nrfiles=2 sync_file_range=write:1: exit, error, writes '$rc $got', want '0 0 16': $(head -c 300 "$tmp/err")"
done
echo "$fails failed"
[ $fails -eq 0 ]
