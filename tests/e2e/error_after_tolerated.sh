#!/usr/bin/env bash
# The error that stops a job is named (file, operation, offset, length) even
# when errors the policy let through came before it. iobench said only
# "err=28 (No space left on device)" on stderr, in the err= line and in the
# JSON error_message: just the first error's message was built. fio 3.33:
# "io_u error on file .../small/f: No space left on device: write
# offset=1048576, buflen=424".
# Round robin over a file that takes no 1000-byte O_DIRECT write (EINVAL,
# ignored) and one on a 1 MiB tmpfs, which fills.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

[ "$(id -u)" -eq 0 ] || { echo "skip: mounting a 1 MiB tmpfs needs root"; exit 77; }
direct=$(mktemp -d "${TMPDIR:-/var/tmp}/iobench_e2e_direct.XXXXXX") || exit 1
mkdir small
mount -t tmpfs -o size=1m none small || { rm -rf "$direct"; echo "skip: cannot mount tmpfs"; exit 77; }
trap 'cd /; umount "$tmp/small"; rm -rf "$tmp" "$direct"' EXIT
if dd if=/dev/zero of="$direct/probe" bs=1000 count=1 oflag=direct status=none 2>/dev/null ||
  [ ! -e "$direct/probe" ]; then
  echo "skip: $direct takes 1000-byte O_DIRECT writes (or no O_DIRECT at all)"
  exit 77
fi
rm -f "$direct/probe"

want="write $tmp/small/f offset=1048576 length=424: No space left on device"
"$bin" --name=w --filename="$direct/f:$tmp/small/f" --file_service_type=roundrobin --rw=write \
  --bs=1000 --size=4m --direct=1 --fallocate=none --ignore_error=,EINVAL \
  --output-format=normal,json --output=out >/dev/null 2>err
expect_eq "exit" "$?" 1
expect_eq "stderr" "$(cat err)" "iobench: job 'w': err=28 ($want)"
grep -qF "err=28 ($want)" out || fail "normal report: $(grep 'err=' out)"
sed -n '/^{/,/^}/p' out >out.json
expect_eq "JSON error_message" \
  "$(python3 -c 'import json; print(json.load(open("out.json"))["jobs"][0]["iobench"]["error_message"])')" \
  "$want"
[ "$fails" -eq 0 ]
