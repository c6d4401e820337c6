#!/bin/bash
# unlink_each_loop=1 that cannot remove a file (a read-only tmpfs) fails
# the job after the loop, as fio (err=30, exit 1, after 16 KB); iobench
# warned, ran both loops and exited 0. Needs root (mount).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to mount tmpfs"; exit 77; }
mkdir ro
mount -t tmpfs -o size=1m tmpfs ro 2>/dev/null || { echo "skip: cannot mount tmpfs"; exit 77; }
trap 'cd /; umount "$tmp/ro"; rm -rf "$tmp"' EXIT
head -c 16384 /dev/urandom >ro/f
mount -o remount,ro "$tmp/ro" || { echo "skip: cannot remount read-only"; exit 77; }
"$bin" --output-format=json --name=j --rw=read --size=16k --filename=ro/f --unlink_each_loop=1 \
  --loops=2 >out.json 2>err.txt
expect_eq "exit" "$?" 1
python3 - out.json <<'PY' || fail "JSON: $(head -c 300 out.json)"
import json, sys
(j,) = json.load(open(sys.argv[1]))["jobs"]
assert j["error"] == 30 and j["read"]["io_bytes"] == 16384, (j["error"], j["read"]["io_bytes"])
PY
grep -qx "iobench: job 'j': err=30 (unlink_each_loop=1: cannot remove ro/f after loop 1: Read-only file system)" \
  err.txt || fail "stderr: $(cat err.txt)"
[ -e ro/f ] || fail "ro/f is gone"
[ "$fails" -eq 0 ]
