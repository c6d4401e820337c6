#!/usr/bin/env bash
# RLIMIT_NPROC does not hold for a real uid of root: copy_process() skips
# it for INIT_USER, capabilities or not. With `ulimit -u 2`, root without
# capabilities (setpriv --inh-caps=-all --bounding-set=-all, as in a
# container) runs numjobs=3 in fio 3.33, where iobench refused "the jobs
# need 5 threads but RLIMIT_NPROC is 2" (it looked at CAP_SYS_RESOURCE
# and CAP_SYS_ADMIN only). A user (nobody) is still refused before any
# thread starts.
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

if id nobody >/dev/null 2>&1; then
  (
    ulimit -u 2
    setpriv --reuid=nobody --regid=nogroup --clear-groups ./iobench "${job[@]}" >out 2>err
  )
  expect_eq "nobody, ulimit -u 2: exit status" "$?" 2
  grep -q "RLIMIT_NPROC is 2" err || fail "nobody: want the RLIMIT_NPROC refusal, got '$(cat err)'"
fi

[ "$fails" -eq 0 ] || exit 1
echo "RLIMIT_NPROC and a real root: ok"
