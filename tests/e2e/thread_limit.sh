#!/usr/bin/env bash
# More clones than the system lets iobench start as threads (numjobs=65536
# ran out at thread 32406): the error names the job, the clone and where
# numjobs= was set, and where the limit lies. It said only "cannot start
# worker thread 32406 of 65536: Resource temporarily unavailable".
# RLIMIT_NPROC is checked before the run (nproc_real_root.sh), so the limit
# here is a pids cgroup of the test's own with pids.max=20 (cgroup v1's
# pids hierarchy, or v2); skipped where none can be made (not root, no
# pids controller).
source "$(dirname "$0")/setup.bash"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
cg=""
for base in /sys/fs/cgroup/pids /sys/fs/cgroup/unified /sys/fs/cgroup; do
  [ -e "$base/cgroup.procs" ] || continue
  d="$base/iobench-e2e-$$"
  mkdir "$d" 2>/dev/null || continue
  if [ -e "$d/pids.max" ] && echo 20 >"$d/pids.max" 2>/dev/null; then
    cg=$d
    break
  fi
  rmdir "$d" 2>/dev/null
done
[ -n "$cg" ] || { echo "SKIP: no pids cgroup to make"; exit 77; }
trap 'cd /; rm -rf "$tmp"; rmdir "$cg" 2>/dev/null' EXIT

printf '[many]\nioengine=null\nsize=1m\nnumjobs=64\n' >t.fio
(
  echo "$BASHPID" >"$cg/cgroup.procs" || exit 99
  exec "$bin" --output=/dev/null t.fio 2>err
)
rc=$?
if [ "$rc" -eq 99 ]; then
  echo "SKIP: cannot move into $cg"
  exit 77
fi
[ "$rc" -ne 0 ] || fail "numjobs=64 under pids.max=20: ran"
grep -qF "(job 'many', clone " err && grep -qF " of numjobs=64 at t.fio:4): " err &&
  echo "ok   the error names the job, the clone and numjobs= at t.fio:4" ||
  fail "the error does not name the job and numjobs=: $(head -3 err)"
grep -qF "pids.max" err && echo "ok   the error says where the limit is" ||
  fail "the error does not say where the limit is: $(head -3 err)"

[ "$fails" -eq 0 ]
