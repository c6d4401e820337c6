#!/usr/bin/env bash
# nice below the run's niceness and the real-time I/O class need privileges
# (CAP_SYS_NICE or RLIMIT_NICE; CAP_SYS_ADMIN or CAP_SYS_NICE). As a user,
# such a job fails alone, as in fio (err=1, the other jobs run, exit 1),
# and its error now says what would let it; it said only "Operation not
# permitted" (cmdprio's per-I/O class already said more).
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no setpriv,
# or the user may lower its niceness here).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to become another uid)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-sched-perm.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1
user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if "${user[@]}" sh -c 'renice -n -1 -p $$' >/dev/null 2>&1; then
  echo "SKIP: the user may lower its niceness here (RLIMIT_NICE or a capability)"
  exit 77
fi
nice_hard=$("${user[@]}" sh -c 'ulimit -H -e' 2>/dev/null || echo 0)

printf '[global]\nsize=1m\nrw=write\n[r]\nprioclass=1\nprio=3\n[n]\nnice=-5\n[ok]\nnice=3\nprioclass=2\nprio=7\n' >j.fio
"${user[@]}" ./iobench j.fio >out 2>err
expect_eq "as a user: exit status (the two jobs fail alone)" "$?" 1
grep -qF "iobench: job 'r': err=1 (prioclass=1 at j.fio:5, prio=3 at j.fio:6: ioprio_set(class 1, level 3): Operation not permitted; the real-time I/O priority class needs CAP_SYS_ADMIN or CAP_SYS_NICE; prioclass=2 (best effort) needs neither)" err ||
  fail "prioclass=1 as a user: want the options and the capability, got '$(grep "'r'" err)'"
# nice=-5 is relative to the niceness the run starts with (under `nice -n 2`: 2 -> -3).
cur=$(nice)
want=$((cur - 5 < -20 ? -20 : cur - 5))
need=$((20 - want))
case $nice_hard in
  unlimited) how="\`ulimit -e $need\` before the run" ;;
  *) if [ "$nice_hard" -ge "$need" ]; then how="\`ulimit -e $need\` before the run"; else how="its hard limit is $nice_hard, which only root can raise"; fi ;;
esac
grep -qF "iobench: job 'n': err=1 (nice=-5 at j.fio:8: nice(-5), niceness $cur -> $want: Operation not permitted; a lower niceness needs CAP_SYS_NICE or an RLIMIT_NICE of $need ($how))" err ||
  fail "nice=-5 as a user: want the option and the remedy, got '$(grep "'n'" err)'"
# What a user may do still runs: a higher niceness, the best-effort class.
grep -q "^ok: (groupid=0, jobs=1): err= 0" out || fail "job 'ok' (nice=3 prioclass=2) did not run: $(grep '^ok:' out)"
[ "$(grep -c . err)" -eq 2 ] || fail "stderr: want the two errors only, got '$(cat err)'"

[ "$fails" -eq 0 ] || exit 1
echo "scheduling permissions as a user: ok"
