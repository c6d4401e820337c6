#!/usr/bin/env bash
# cmdprio_percentage/cmdprio_class/cmdprio on libaio and io_uring: the share
# of I/Os issued with the priority is the one asked for, the kernel accepts
# the ioprio value (no I/O errors), and engines without cmdprio refuse it.
set -u
bin=$1
tmp=$(mktemp -d /var/tmp/iobench_cmdprio.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for engine in libaio io_uring; do
  for cls in "" "--cmdprio_class=2 --cmdprio=4"; do
    # shellcheck disable=SC2086
    "$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=$engine --direct=1 \
      --iodepth=8 --rw=randrw --number_ios=4000 --cmdprio_percentage=30 $cls \
      --output-format=json >"$tmp/out.json" || fail "$engine $cls: exit $?"
    python3 - "$tmp/out.json" <<'PY' || fail "$engine $cls: shares"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
assert j["error"] == 0, j["error"]
hp = j["iobench"]["high_prio_ios"]
for ddir in ("read", "write"):
    n = j[ddir]["total_ios"]
    share = hp[ddir] / n
    assert 0.25 <= share <= 0.35, (ddir, hp[ddir], n)
PY
  done
done
"$bin" --name=p --filename="$tmp/f" --size=1m --ioengine=psync --cmdprio_percentage=30 \
  --number_ios=1 >/dev/null 2>"$tmp/err" && fail "psync accepted cmdprio_percentage"
grep -q "cmdprio_percentage" "$tmp/err" || fail "refusal does not name the option: $(cat "$tmp/err")"
echo ok
