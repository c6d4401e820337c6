#!/usr/bin/env bash
# cmdprio_class defaults to 1 (real-time), which the kernel's
# ioprio_check_cap allows only with CAP_SYS_ADMIN or CAP_SYS_NICE. As a
# user, io_uring fails those I/Os with EPERM, and the message said only
# "read ... Operation not permitted": it now names cmdprio_percentage, the
# class and the capability. I/Os without a priority read fine.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no setpriv,
# no io_uring).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to become another uid)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
. "$src/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-cmdprio-eperm.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1
head -c 1M /dev/zero >f
chmod 644 f
printf '[j]\nfilename=f\nioengine=io_uring\nrw=randread\nbs=4k\nnumber_ios=200\ncmdprio_percentage=50\n' >j.fio
user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
"${user[@]}" ./iobench --name=p --ioengine=io_uring --filename=f --rw=read --number_ios=4 \
  >/dev/null 2>err || { echo "SKIP: io_uring does not run as nobody: $(cat err)"; exit 77; }

"${user[@]}" ./iobench j.fio >out 2>err
expect_eq "cmdprio as a user: exit status" "$?" 1
grep -q "Operation not permitted; cmdprio_percentage=50 at j.fio:7 with cmdprio_class=1 (the default) gave this I/O the real-time priority class, which needs CAP_SYS_ADMIN or CAP_SYS_NICE" out ||
  fail "cmdprio as a user: want the error to name cmdprio and the capability, got '$(grep -i 'not permitted' out err)'"
printf 'cmdprio_class=2\n' >>j.fio
"${user[@]}" ./iobench j.fio >out 2>err
expect_eq "cmdprio_class=2 as a user: exit status" "$?" 0

[ "$fails" -eq 0 ] || exit 1
echo "cmdprio EPERM as a user: ok"
