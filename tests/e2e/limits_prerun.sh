#!/usr/bin/env bash
# What the check before the run counts, and what a failure names:
# - descriptors open before the run (a parent's): it assumed 16 for stdio
#   and slack, so 50 inherited descriptors under ulimit -n 64 passed the
#   check and the run failed with EMFILE;
# - a thread that cannot start under ulimit -v names it, with its value
#   (each thread's stack counts against it);
# - one SQPOLL thread per io_uring ring with sqthread_poll=1, which
#   RLIMIT_NPROC counts (root's real uid is exempt: as another uid, with
#   setpriv; skipped without).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# 50 inherited descriptors, 20 files of the job's own: refused before the run.
out=$(
  ulimit -n 64
  for i in $(seq 50); do eval "exec {fd}</dev/null"; done
  "$bin" --name=j --ioengine=psync --directory="$tmp" --nrfiles=20 --size=80k --rw=write \
    --output=/dev/null 2>&1
)
rc=$?
expect_eq "inherited descriptors: exit code" "$rc" 2
grep -q "were open before the run, stdio included) but RLIMIT_NOFILE is 64" <<<"$out" ||
  fail "inherited descriptors: $out"
ls "$tmp"/j.0.* >/dev/null 2>&1 && fail "inherited descriptors: files were laid out"

if ! grep -qaE '__asan_init|__tsan_init' "$bin"; then
  out=$(ulimit -v 200000 && "$bin" --name=t --ioengine=null --size=1m --numjobs=64 \
    --output=/dev/null 2>&1)
  expect_eq "ulimit -v: exit code" "$?" 2
  grep -q "ulimit -v, now 200000 KiB, which each thread's stack" <<<"$out" ||
    fail "ulimit -v: $out"
fi

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  uid=61876
  chmod 755 "$tmp"
  cp "$bin" "$tmp/iobench" && chmod 755 "$tmp/iobench"
  mkdir "$tmp/u" && chown "$uid" "$tmp/u"
  user=(setpriv --reuid=$uid --regid=$uid --clear-groups --inh-caps=-all --bounding-set=-all)
  if pgrep -U "$uid" >/dev/null; then
    echo "skip sqthread_poll: uid $uid has tasks already"
  else
    out=$(ulimit -u 10 && "${user[@]}" "$tmp/iobench" --name=s --ioengine=io_uring \
      --sqthread_poll=1 --filename="$tmp/u/s.dat" --size=64k --numjobs=5 --output=/dev/null 2>&1)
    expect_eq "sqthread_poll: exit code" "$?" 2
    grep -q "the jobs need 12 threads but RLIMIT_NPROC is 10" <<<"$out" ||
      fail "sqthread_poll: $out"
  fi
else
  echo "skip sqthread_poll: needs root and setpriv"
fi
[ "$fails" -eq 0 ]
