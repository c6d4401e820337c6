#!/usr/bin/env bash
# cmdprio_percentage/cmdprio_class/cmdprio/cmdprio_bssplit on libaio and io_uring: the share
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
    python3 - "$tmp/out.json" "$cls" <<'PY' || fail "$engine $cls: shares and prios"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
assert j["error"] == 0, j["error"]
hp = j["iobench"]["high_prio_ios"]
cls = 2 if "cmdprio_class=2" in sys.argv[2] else 1
level = 4 if "cmdprio=4" in sys.argv[2] else 0
for ddir in ("read", "write"):
    n = j[ddir]["total_ios"]
    share = hp[ddir] / n
    assert 0.25 <= share <= 0.35, (ddir, hp[ddir], n)
    # fio's clat split by priority: the job's own (0/0) and the cmdprio one.
    prios = j[ddir]["prios"]
    assert [(p["prioclass"], p["prio"]) for p in prios] == [(0, 0), (cls, level)], prios
    assert prios[1]["clat_ns"]["N"] == hp[ddir], (prios, hp[ddir])
    assert prios[0]["clat_ns"]["N"] + prios[1]["clat_ns"]["N"] == j[ddir]["clat_ns"]["N"]
    assert min(p["clat_ns"]["min"] for p in prios) == j[ddir]["clat_ns"]["min"]
    assert max(p["clat_ns"]["max"] for p in prios) == j[ddir]["clat_ns"]["max"]
    assert "50.000000" in prios[0]["clat_ns"]["percentile"], prios[0]
PY
  done
done
# cmdprio_bssplit: exactly the 4k I/Os carry the priority (100 % of 4k, 0 % of
# 8k); with two sizes, bytes and I/O count give the number of 4k I/Os. The
# second entry format brings its own class/level. Mixed with
# cmdprio_percentage it is refused, as in fio.
for engine in libaio io_uring; do
  "$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=$engine --direct=1 --iodepth=4 \
    --rw=randread --bssplit=4k/50:8k/50 --number_ios=3000 --cmdprio_bssplit=4k/100/2/6:8k/0 \
    --output-format=json >"$tmp/bs.json" || fail "$engine cmdprio_bssplit: exit $?"
  python3 - "$tmp/bs.json" <<'PY' || fail "$engine cmdprio_bssplit: counts"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
rd = j["read"]
n, b = rd["total_ios"], rd["io_bytes"]
n4k = (8192 * n - b) // 4096
assert 0 < n4k < n, (n, b)
assert j["iobench"]["high_prio_ios"]["read"] == n4k, (j["iobench"]["high_prio_ios"], n4k)
prios = rd["prios"]
assert [(p["prioclass"], p["prio"]) for p in prios] == [(0, 0), (2, 6)], prios
assert prios[1]["clat_ns"]["N"] == n4k and prios[0]["clat_ns"]["N"] == n - n4k, prios
PY
done
"$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --rw=randread --number_ios=10 \
  --cmdprio_bssplit=4k/50 --cmdprio_percentage=10 >/dev/null 2>"$tmp/err" &&
  fail "cmdprio_bssplit with cmdprio_percentage accepted"
grep -q "mutually exclusive" "$tmp/err" || fail "exclusive: $(cat "$tmp/err")"
"$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --rw=randread --number_ios=10 \
  --cmdprio_bssplit=4k/50/1/0:8k/50/2/3 >/dev/null 2>"$tmp/err" &&
  fail "two priorities for reads accepted"
grep -q "more than one priority" "$tmp/err" || fail "two priorities: $(cat "$tmp/err")"
# The normal report has fio's lines for each priority.
"$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --iodepth=4 --rw=randread \
  --number_ios=2000 --cmdprio_percentage=30 >"$tmp/normal.txt" || fail "normal: exit $?"
for want in "clat prio 0/0 (" "clat prio 1/0 (" "clat prio 0/0 (.*% of IOs) percentiles" \
  "clat prio 1/0 (.*% of IOs) percentiles"; do
  grep -q "$want" "$tmp/normal.txt" || fail "normal report lacks '$want': $(cat "$tmp/normal.txt")"
done
# Without cmdprio there is no split, as in fio.
"$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --rw=randread --number_ios=100 \
  --output-format=json >"$tmp/plain.json" || fail "plain: exit $?"
python3 -c 'import json,sys; assert "prios" not in json.load(open(sys.argv[1]))["jobs"][0]["read"]' \
  "$tmp/plain.json" || fail "a job without cmdprio has prios"
"$bin" --name=p --filename="$tmp/f" --size=1m --ioengine=psync --cmdprio_percentage=30 \
  --number_ios=1 >/dev/null 2>"$tmp/err" && fail "psync accepted cmdprio_percentage"
grep -q "cmdprio_percentage" "$tmp/err" || fail "refusal does not name the option: $(cat "$tmp/err")"
echo ok
