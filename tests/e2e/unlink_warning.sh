#!/bin/bash
# unlink=1 (and unlink_each_loop=1) on a file whose directory the user cannot
# write: the file stays, and iobench says so on stderr, naming the file and
# the error (it exited 0 silently; fio 3.33 is silent too). As root the runs
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

for opt in unlink unlink_each_loop; do
  "${as[@]}" "$bin" --eta=never --name=u --filename="$work/ro/f" --size=1m --rw=read \
    --loops=2 --$opt=1 --output-format=terse >"$work/$opt.out" 2>"$work/$opt.err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "$opt: exit $rc: $(cat "$work/$opt.err")"
  [ -e "$work/ro/f" ] || fail "$opt: the file went"
  want="iobench: warning: job 'u': $opt=1: cannot remove $work/ro/f: Permission denied"
  [ "$(grep -c . "$work/$opt.err")" -eq 1 ] && grep -qxF "$want" "$work/$opt.err" ||
    fail "$opt: stderr: $(cat "$work/$opt.err")"
  [ "$fails" -eq 0 ] && echo "ok   $opt=1 on an unremovable file warns"
done
[ "$fails" -eq 0 ]
