#!/usr/bin/env bash
# RLIMIT_NPROC does not hold for a real uid of root: copy_process() skips
# it for INIT_USER, capabilities or not. With `ulimit -u 2`, root without
# capabilities (setpriv --inh-caps=-all --bounding-set=-all, as in a
# container) runs numjobs=3 in fio 3.33, where iobench refused "the jobs
# need 5 threads but RLIMIT_NPROC is 2" (it looked at CAP_SYS_RESOURCE
# and CAP_SYS_ADMIN only). A user is still refused before any thread
# starts. The user is a uid of this test's own, not nobody: RLIMIT_NPROC
# counts all of the uid's tasks on the machine, and with the other tests
# that run as nobody alongside, the limit of 2 was met before iobench's
# check (under ASan, LeakSanitizer's thread at exit failed: exit 1).
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no setpriv).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
[ "$(readlink /proc/self/ns/user)" = "user:[4026531837]" ] ||
  { echo "SKIP: not in the initial user namespace"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-nproc.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1

job=(--name=t --ioengine=null --size=1m --rw=read --numjobs=3 --output-format=terse)
(
  ulimit -u 2
  setpriv --inh-caps=-all --bounding-set=-all ./iobench "${job[@]}" >out 2>err
)
expect_eq "root without capabilities, ulimit -u 2: exit status" "$?" 0
expect_eq "root without capabilities: stderr" "$(cat err)" ""
expect_eq "root without capabilities: jobs run" "$(wc -l <out)" 3

# A uid with no account and, unless another run of this test is going on,
# no task.
uid=61873
if pgrep -U "$uid" >/dev/null; then
  echo "skip the user case: uid $uid has tasks already"
else
  (
    ulimit -u 2
    setpriv --reuid="$uid" --regid="$uid" --clear-groups ./iobench "${job[@]}" >out 2>err
  )
  expect_eq "uid $uid, ulimit -u 2: exit status" "$?" 2
  grep -q "RLIMIT_NPROC is 2" err || fail "uid $uid: want the RLIMIT_NPROC refusal, got '$(cat err)'"
fi

[ "$fails" -eq 0 ] || exit 1
echo "RLIMIT_NPROC and a real root: ok"
