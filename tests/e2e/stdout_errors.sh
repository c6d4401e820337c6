#!/usr/bin/env bash
# stdout that cannot take the output. Help and lists (--help, --version,
# --list-engines, --cmdhelp, --enghelp) exited 0 into /dev/full; they now
# fail as the report does (exit 1, "cannot write ... to stdout"). And a
# non-blocking stdout pipe (the parent set O_NONBLOCK and reads slowly):
# the report failed with EAGAIN after 64 KiB; it now waits for room.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
source "$(dirname "$0")/check.bash"
bin=$1
tmp=$(mktemp -d /tmp/iobench_stdout_errors.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for a in --help --version --list-engines --cmdhelp --cmdhelp=bs --enghelp --enghelp=libaio; do
  "$bin" $a >/dev/full 2>"$tmp/err"
  expect_eq "$a >/dev/full: exit" $? 1
  expect_eq "$a >/dev/full: message" "$(cat "$tmp/err")" \
    "iobench: cannot write the output to stdout: No space left on device"
done
"$bin" --name=t --ioengine=null --size=1m >/dev/full 2>"$tmp/err"
expect_eq "report >/dev/full: exit" $? 1
expect_eq "report >/dev/full: message" "$(cat "$tmp/err")" \
  "iobench: cannot write the report to stdout: No space left on device"

command -v python3 >/dev/null || { echo "skip: no python3 for the O_NONBLOCK pipe"; exit 77; }
# A large report (64 clones, json+) into an O_NONBLOCK pipe read slowly.
python3 - "$bin" "$tmp" >"$tmp/py.out" 2>&1 <<'PY'
import fcntl, os, subprocess, sys, time
bin_, tmp = sys.argv[1], sys.argv[2]
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
p = subprocess.Popen([bin_, "--name=t", "--ioengine=null", "--size=1m", "--numjobs=64",
                      "--output-format=json+"], stdout=w, stderr=open(tmp + "/nb.err", "w"))
os.close(w)
data = b""
while True:
    time.sleep(0.005)
    chunk = os.read(r, 4096)
    if not chunk:
        break
    data += chunk
rc = p.wait()
open(tmp + "/nb.json", "wb").write(data)
print(rc, len(data) > 65536)
PY
expect_eq "O_NONBLOCK pipe: exit, more than 64 KiB" "$(cat "$tmp/py.out")" "0 True"
expect_eq "O_NONBLOCK pipe: stderr" "$(cat "$tmp/nb.err")" ""
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['jobs']))" \
  "$tmp/nb.json" >"$tmp/n" 2>&1
expect_eq "O_NONBLOCK pipe: jobs in the report" "$(cat "$tmp/n")" 64
[ "$fails" -eq 0 ]
