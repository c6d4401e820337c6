#!/bin/bash
# unlink=1 on a file whose directory the user cannot write: the file stays,
# and iobench says so on stderr, naming the file and the error (it exited 0
# silently; fio 3.33 is silent too). unlink_each_loop=1 fails the job. As root the runs
# go as nobody (setpriv), since root may remove anything.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
source "$2/tests/e2e/check.bash"
source "$2/tests/e2e/unprivileged.bash"
unprivileged_workdir 755
mkdir "$work/ro"
head -c 1048576 /dev/zero >"$work/ro/f"
chmod 666 "$work/ro/f"
chmod 555 "$work/ro"
[ "$(id -u)" -eq 0 ] && chown -R root "$work/ro"

"${as[@]}" "$bin" --eta=never --name=u --filename="$work/ro/f" --size=1m --rw=read \
  --loops=2 --unlink=1 --output-format=terse >"$work/unlink.out" 2>"$work/unlink.err"
rc=$?
[ "$rc" -eq 0 ] || fail "unlink: exit $rc: $(cat "$work/unlink.err")"
[ -e "$work/ro/f" ] || fail "unlink: the file went"
want="iobench: warning: job 'u': unlink=1: cannot remove $work/ro/f: Permission denied"
[ "$(grep -c . "$work/unlink.err")" -eq 1 ] && grep -qxF "$want" "$work/unlink.err" ||
  fail "unlink: stderr: $(cat "$work/unlink.err")"
[ "$fails" -eq 0 ] && echo "ok   unlink=1 on an unremovable file warns"
# unlink_each_loop=1 fails the job after the first loop, as fio
# (unlink_all_files: err=13, exit 1); it used to warn and go on.
"${as[@]}" "$bin" --eta=never --name=u --filename="$work/ro/f" --size=1m --rw=read \
  --loops=2 --unlink_each_loop=1 --output-format=terse >"$work/each.out" 2>"$work/each.err"
rc=$?
[ "$rc" -eq 1 ] || fail "unlink_each_loop: exit $rc: $(cat "$work/each.err")"
[ -e "$work/ro/f" ] || fail "unlink_each_loop: the file went"
want="iobench: job 'u': err=13 (unlink_each_loop=1: cannot remove $work/ro/f after loop 1: Permission denied)"
grep -qxF "$want" "$work/each.err" || fail "unlink_each_loop: stderr: $(cat "$work/each.err")"
[ "$fails" -eq 0 ] && echo "ok   unlink_each_loop=1 on an unremovable file fails the job"
[ "$fails" -eq 0 ]
