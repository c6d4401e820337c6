#!/usr/bin/env bash
# io_uring on tmpfs hands each write to an io-wq worker thread, which the
# kernel makes as the user's: under `ulimit -u` with the user's threads at
# the limit, it cannot, and cancels the I/O. The job failed with "err=125
# (write ...: Operation canceled)" and nothing more; the error names the
# io-wq worker thread and ulimit -u (its value) now.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no setpriv,
# no io_uring, or the kernel started every thread).
set -u
bin=$(readlink -f "$1")
src=$2
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to become another uid)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /dev/shm/iobench-nproc.XXXXXX)  # tmpfs: its writes go to io-wq
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1
# A uid of its own: RLIMIT_NPROC counts every task of the uid.
uid=61875
if pgrep -U "$uid" >/dev/null; then
  echo "SKIP: uid $uid has tasks already"
  exit 77
fi
user=(setpriv --reuid=$uid --regid=$uid --clear-groups --inh-caps=-all --bounding-set=-all)
"${user[@]}" ./iobench --name=p --ioengine=io_uring --filename=f0 --size=64k --rw=read \
  >/dev/null 2>err || { echo "SKIP: io_uring does not run as uid $uid: $(cat err)"; exit 77; }
(ulimit -u 52 && exec "${user[@]}" ./iobench --name=u --ioengine=io_uring --filename=u.dat \
  --size=4m --numjobs=50 --iodepth=4 --rw=randwrite --runtime=2 --time_based) >out 2>err
rc=$?
if ! grep -q "Operation canceled" err; then
  echo "SKIP: no I/O was canceled (exit $rc): $(head -c 300 err)"
  exit 77
fi
expect_eq "exit code" "$rc" 1
grep "Operation canceled" err | grep -v -q "io-wq worker thread for this I/O: threads count against ulimit -u, now 52" &&
  fail "a canceled I/O without the hint: $(grep "Operation canceled" err | head -1)"
[ "$fails" -eq 0 ]
