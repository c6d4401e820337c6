#!/usr/bin/env bash
# io_uring as a user under a small RLIMIT_MEMLOCK. Without CAP_IPC_LOCK
# each ring (8 KiB for a 1-entry ring on 6.18) and the fixedbufs buffers
# are charged to RLIMIT_MEMLOCK, and a closed ring's charge is released
# later by a kernel worker. iobench's probe ring, closed just before the
# job's ring was set up, still counted: with `ulimit -l 8` a single job
# failed "setup (sq=1, cq=2): Cannot allocate memory" and with
# `ulimit -l 64` numjobs=8 failed its 8th ring, where fio 3.33 runs both.
# fixedbufs with iodepth=13 bs=4k (52 KiB + an 8 KiB ring) fits 64 KiB
# and now runs; iodepth=15 (60 KiB + 8 KiB) does not, and the pre-run
# check counts the ring (on kernels that charge it) so the limit it
# suggests runs. A 4 KiB limit fails the probe itself,
# which names RLIMIT_MEMLOCK (it said only "Cannot allocate memory").
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no
# setpriv, no io_uring).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to become another uid)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-memlock.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1
# A uid of its own, not nobody: the kernel charges rings and registered
# buffers to the uid, so a ring open in another test run as nobody at the
# same time made the first case fail (ENOMEM at ulimit -l 8).
uid=61874
if pgrep -U "$uid" >/dev/null; then
  echo "SKIP: uid $uid has tasks already"
  exit 77
fi
user=(setpriv --reuid=$uid --regid=$uid --clear-groups)
"${user[@]}" ./iobench --name=p --ioengine=io_uring --filename=f0 --size=64k --rw=read \
  >/dev/null 2>err || { echo "SKIP: io_uring does not run as uid $uid: $(cat err)"; exit 77; }

run() { # KIB ARGS...: runs as $uid under ulimit -l KIB; terse lines to out, stderr to err
  local kib=$1
  shift
  (
    ulimit -l "$kib"
    "${user[@]}" ./iobench --ioengine=io_uring --size=256k --rw=read --bs=4k \
      --output-format=terse "$@" >out 2>err
  )
}

run 8 --name=one --filename=f1
expect_eq "ulimit -l 8, one job: exit status" "$?" 0
expect_eq "ulimit -l 8, one job: stderr" "$(cat err)" ""
run 64 --name=eight --filename=f2 --numjobs=8
expect_eq "ulimit -l 64, numjobs=8: exit status" "$?" 0
expect_eq "ulimit -l 64, numjobs=8: jobs run" "$(grep -c '^3;' out)" 8
run 64 --name=fb --filename=f3 --fixedbufs=1 --iodepth=13
expect_eq "ulimit -l 64, fixedbufs 52 KiB: exit status" "$?" 0
run 64 --name=fb --filename=f3 --fixedbufs=1 --iodepth=15
expect_eq "ulimit -l 64, fixedbufs 60 KiB: exit status" "$?" 2
grep -q "locked memory: io_uring fixedbufs registers 60 KiB of buffers, the io_uring rings take 8 KiB but RLIMIT_MEMLOCK is 64 KiB; raise it with \`ulimit -l 68\`" err ||
  fail "fixedbufs 60 KiB: want the pre-run check to count the ring, got '$(cat err)'"
# The limit the pre-run check suggests holds the ring too: for 4 MiB of
# buffers it said `ulimit -l 4096`, under which register_buffers failed
# (the ring's 8 KiB are charged as well); 4104 KiB run.
run 64 --name=fb --filename=f5 --fixedbufs=1 --iodepth=64 --bs=64k --size=8m
expect_eq "ulimit -l 64, fixedbufs 4 MiB: exit status" "$?" 2
want=$(sed -n 's/.*raise it with `ulimit -l \([0-9]*\)`.*/\1/p' err)
expect_eq "fixedbufs 4 MiB: suggested limit" "$want" 4104
run "${want:-4104}" --name=fb --filename=f5 --fixedbufs=1 --iodepth=64 --bs=64k --size=8m
expect_eq "ulimit -l $want (as suggested), fixedbufs 4 MiB: exit status" "$?" 0
expect_eq "ulimit -l $want (as suggested), fixedbufs 4 MiB: stderr" "$(cat err)" ""
run 4 --name=probe --filename=f4
expect_eq "ulimit -l 4: exit status" "$?" 2
grep -q "io_uring_setup(1): Cannot allocate memory; RLIMIT_MEMLOCK is 4 KiB" err ||
  fail "ulimit -l 4: want the probe's message to name RLIMIT_MEMLOCK, got '$(cat err)'"

[ "$fails" -eq 0 ] || exit 1
echo "io_uring under RLIMIT_MEMLOCK as a user: ok"
