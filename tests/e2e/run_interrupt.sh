#!/bin/bash
# ctest-labels: threads
# Ctrl-C: a time-based run stopped by SIGINT still prints what it measured and
# exits 130. $1: iobench binary, $2: source dir. Exit 77 while the CLI is not wired.
set -u
source "$(dirname "$0")/signal_wait.bash"
bin=$1
if ! "$bin" --help 2>&1 | grep -q -- "--output-format"; then
  echo "skip: the CLI does not take job options yet"
  exit 77
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" --name=long --ioengine=null --size=64M --rw=randwrite --time_based --runtime=120 \
  --output-format=json >"$out" &
pid=$!
wait_catching "$pid" 2 || echo "note: iobench did not catch SIGINT within 20 s"
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || { echo "exit code $rc, want 130"; exit 1; }
python3 - "$out" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
w = doc["jobs"][0]["write"]
assert w["total_ios"] > 0, w
print("ok")
PY
