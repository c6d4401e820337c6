#!/bin/bash
# ctest-labels: threads
# A second stop signal (a second or more after the first: "exiting without a
# report") still removes the files of unlink=1 jobs, which the first stop
# removes when the phase ends: a Ctrl-C during the exec_postrun that follows
# the first left a 256 MiB file behind (fio 3.33 removes it: it waits for the
# hook). Only those files: a later phase's job without unlink keeps the same
# path's file. unlink_each_loop alone removes files between loops only, so a
# stop mid-loop keeps the current loop's file (fio's too), as the first stop
# does. $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash" "$1"
command -v timeout >/dev/null || { echo "skip: needs timeout"; exit 77; }
# ThreadSanitizer defers signal handlers past the exec_postrun's wait (see
# signals.sh): the second signal then comes after the run removed the files.
cache="$(dirname "$bin")/CMakeCache.txt"
if [ -f "$cache" ] && grep -q '^CMAKE_CXX_FLAGS:.*-fsanitize=thread' "$cache"; then
  echo "skip: ThreadSanitizer build (it delays signal handlers past blocking waits)"
  exit 77
fi

hooks=()
kill_hooks() { for p in "${hooks[@]}"; do kill "$p" 2>/dev/null; done; }
trap 'kill_hooks; cd /; rm -rf "$tmp"' EXIT

# wait_for FILE [MIN]: up to 20 s, for FILE to hold MIN bytes (default 1).
wait_for() {
  for _ in $(seq 400); do
    [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge "${2:-1}" ] && return 0
    sleep 0.05
  done
  return 1
}

# run_twice NAME JOBFILE FILE [MIN]: runs the job file, SIGINT once FILE
# holds MIN bytes and the job writes, again 1.2 s later, once its
# exec_postrun (which writes NAME.pid) runs; sets rc. Returns 1 if the run
# did not get that far.
run_twice() {
  local name=$1 job=$2 file=$3 min=${4:-1}
  "$bin" --eta=never "$job" >"$name.out" 2>"$name.err" &
  local pid=$!
  wait_for "$file" "$min" || { kill -KILL $pid; wait $pid; fail "$name: $file never appeared"; return 1; }
  sleep 0.5
  kill -INT $pid
  if ! wait_for "$name.pid"; then
    kill -KILL $pid
    wait $pid
    fail "$name: the exec_postrun never ran: $(head -c 300 "$name.err")"
    return 1
  fi
  hooks+=("$(cat "$name.pid")")
  sleep 1.2 # a second signal: more than a second after the first
  [ -e "$file" ] || fail "$name: $file gone before the second signal (the test needs it there)"
  kill -INT $pid
  if ! timeout 10 tail --pid=$pid -f /dev/null; then
    kill -KILL $pid
    wait $pid
    fail "$name: still running after the second SIGINT"
    return 1
  fi
  wait $pid
  rc=$?
  expect_eq "$name: exit" 130 "$rc"
  grep -qx "iobench: second signal: exiting without a report" "$name.err" ||
    fail "$name: stderr: $(head -c 300 "$name.err")"
  return 0
}

# The hooks: a job file's ';' starts a comment, so each is a script.
for n in u k; do
  printf '#!/bin/sh\necho $$ > %s/%s.pid\nexec sleep 5\n' "$tmp" $n >$n.sh
  chmod +x $n.sh
done
cat >u.fio <<EOF
[u]
ioengine=psync
rw=write
bs=64k
size=64m
rate=20m
filename=$tmp/s.dat
unlink=1
exec_postrun=$tmp/u.sh
EOF
if run_twice u u.fio "$tmp/s.dat"; then
  [ -e "$tmp/s.dat" ] && fail "unlink=1: s.dat left by the second signal: $(ls -l "$tmp/s.dat")"
fi

# Phase 1 removes k.dat (unlink=1) and phase 2 writes it again without
# unlink: the second signal, in phase 2's exec_postrun, leaves it.
cat >k.fio <<EOF
[global]
ioengine=psync
rw=write
bs=64k
filename=$tmp/k.dat
[a]
size=1m
unlink=1
[b]
stonewall
size=64m
rate=20m
exec_postrun=$tmp/k.sh
EOF
# k.dat appears in phase 1 already: wait for phase 2 (a's 1 MiB is gone by
# then; b's is larger).
if run_twice k k.fio "$tmp/k.dat" 1048577; then
  [ -e "$tmp/k.dat" ] || fail "a later phase's file without unlink was removed by the second signal"
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
