#!/bin/bash
# ctest-labels: threads
# A layout cut short by a signal is undone, so the next run does not take a
# full-size file of unwritten extents (fallocate first, then the data) for a
# laid-out one and read zeros without device I/O: a file the run created is
# removed (fio's extend_file unlinks it when terminated), a file it was
# extending goes back to its old size and data. On ext4 (/var/tmp).
# The run is stopped (SIGSTOP) as soon as the file is there, and signalled
# only if /proc/PID/io shows the layout unfinished; else the case is skipped.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
source "$2/tests/e2e/signal_wait.bash"

work=$(mktemp -d /var/tmp/iobench-layint.XXXXXX)
pid=""
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
avail=$(df -k --output=avail "$work" | tail -1)
[ "$avail" -gt $((8 * 1024 * 1024)) ] || { echo "skip: less than 8 GiB free in /var/tmp"; exit 77; }
fails=0
ran=0
fail() {
  echo "FAIL $*"
  fails=$((fails + 1))
}
size=$((4 << 30))

# interrupt NAME FILE: starts a randread job over 4 GiB of FILE, stops it as
# soon as FILE is there and SIGTERMs it if the layout had not finished.
# Returns 1 (case skipped) when it had.
interrupt() {
  local name=$1 f=$2 wchar rc
  "$bin" --eta=never --name="$name" --filename="$f" --size=$size --rw=randread \
    --runtime=1 >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  if ! wait_catching $pid 15; then
    fail "$name: iobench never caught SIGTERM"
    return 1
  fi
  for _ in $(seq 1000); do
    [ -e "$f" ] && [ "$(stat -c %s "$f")" -eq $size ] && break
    sleep 0.005
  done
  kill -STOP $pid
  wchar=$(awk '/^wchar:/ {print $2}' /proc/$pid/io)
  kill -TERM $pid
  kill -CONT $pid
  timeout 60 tail --pid=$pid -f /dev/null || fail "$name: did not stop"
  wait $pid
  rc=$?
  pid=""
  if [ "$wchar" -ge $((size - (1 << 20))) ]; then
    echo "skip $name: the layout was done before the signal (wrote $wchar bytes)"
    return 1
  fi
  ran=$((ran + 1))
  [ "$rc" -eq 143 ] || fail "$name: exit $rc, want 143"
  # A stop, not an error: the report (the job with no I/O, as fio's), and
  # nothing on stderr (it said "lay out ...: interrupted by a signal" and
  # printed no report).
  [ -s "$work/$name.err" ] && fail "$name: stderr: $(head -c 300 "$work/$name.err")"
  grep -qx "note: the run was interrupted by a signal; results are partial" "$work/$name.out" ||
    fail "$name: report: $(head -c 300 "$work/$name.out")"
  return 0
}

f="$work/new"
before=$fails
if interrupt new "$f"; then
  [ -e "$f" ] && fail "new: the half laid-out file is left ($(stat -c %s "$f") bytes)"
  [ "$fails" -eq "$before" ] && echo "ok   a file created by the interrupted layout is removed"
fi

f="$work/old"
head -c 1048576 /dev/urandom >"$f"
sum=$(md5sum <"$f")
before=$fails
if interrupt old "$f"; then
  if [ ! -e "$f" ]; then
    fail "old: the existing file was removed"
  else
    got=$(stat -c %s "$f")
    [ "$got" -eq 1048576 ] || fail "old: size $got after the interrupted extension, want 1048576"
    [ "$got" -ne 1048576 ] || [ "$(md5sum <"$f")" = "$sum" ] || fail "old: its data changed"
  fi
  [ "$fails" -eq "$before" ] && echo "ok   a file the interrupted layout extended is back to its old size and data"
fi

[ "$ran" -gt 0 ] || { echo "skip: every layout finished before the signal"; exit 77; }
[ "$fails" -eq 0 ] || exit 1
echo "all layout interruption checks passed"
