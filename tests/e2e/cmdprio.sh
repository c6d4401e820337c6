#!/usr/bin/env bash
# cmdprio_percentage/cmdprio_class/cmdprio/cmdprio_bssplit on libaio and io_uring: the share
# of I/Os issued with the priority is the one asked for, the kernel accepts
# the ioprio value (no I/O errors), and engines without cmdprio refuse it.
set -u
bin=$1
source "$(dirname "$0")/fio_side.bash"
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
# With lat_percentiles the split is of the total latency, as fio: JSON
# "lat_ns" per priority, "lat prio" lines, their blocks after "lat percentiles".
lp=(--name=p --filename="$tmp/f" --size=16m --ioengine=io_uring --direct=1 --iodepth=4
  --rw=randread --number_ios=2000 --cmdprio_percentage=50 --lat_percentiles=1)
"$bin" "${lp[@]}" --output-format=json,normal >"$tmp/lp.out" || fail "lat_percentiles: exit $?"
python3 - "$tmp/lp.out" <<'PY' || fail "lat_percentiles: prios"
import json, re, sys
text = open(sys.argv[1]).read()
# The normal header lines, then the JSON document, then the job blocks.
doc, end = json.JSONDecoder().raw_decode(text, text.index("\n{\n") + 1)
rd = doc["jobs"][0]["read"]
prios = rd["prios"]
assert all(list(p) == ["prioclass", "prio", "lat_ns"] for p in prios), prios
assert sum(p["lat_ns"]["N"] for p in prios) == rd["lat_ns"]["N"] == 2000, prios
assert min(p["lat_ns"]["min"] for p in prios) == rd["lat_ns"]["min"]
assert max(p["lat_ns"]["max"] for p in prios) == rd["lat_ns"]["max"]
normal = text[end:]
heads = re.findall(r"^    (\S.*?) percentiles", normal, re.M)
assert heads[:2] == ["clat", "lat"] and all(h.startswith("lat prio ") for h in heads[2:]), heads
assert len(heads) == 4 and "clat prio" not in normal, normal
assert len(re.findall(r"^    lat prio \d/\d \((?:nsec|usec|msec)\): min=", normal, re.M)) == 2, normal
PY
if fio_side; then  # fio 3.33 names the same keys
  fio "${lp[@]}" --output-format=json >"$tmp/lp_fio.json" || fail "fio lat_percentiles: exit $?"
  python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["jobs"][0]["read"]["prios"]
assert all(list(x) == ["prioclass", "prio", "lat_ns"] for x in p), p' "$tmp/lp_fio.json" ||
    fail "fio's prios differ"
fi
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
# The second format may give one size several priorities (fio's example
# cmdprio-bssplit.fio does). The job runs at 2/7: 4k reads are 25 % 1/1 and
# 75 % 3/2; 8k reads 40 % 2/0 and the rest the job's own 2/7. The split lists
# the job's priority first, then the others with their entries sorted by
# block size (8k's entry is written first, 4k's come first), as fio does.
# log_prio logs each I/O's own priority; group_reporting merges by value.
for engine in libaio io_uring; do
  "$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=$engine --direct=1 --iodepth=4 \
    --rw=randread --bssplit=4k/50:8k/50 --number_ios=4000 --prioclass=2 --prio=7 \
    --cmdprio_bssplit=8k/40/2/0:4k/25/1/1:4k/75/3/2 --write_lat_log="$tmp/adv" --log_prio=1 \
    --output-format=json >"$tmp/adv.json" || fail "$engine cmdprio_bssplit, several priorities: exit $?"
  "$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=$engine --direct=1 --iodepth=4 \
    --rw=randread --bssplit=4k/50:8k/50 --number_ios=1000 --prioclass=2 --prio=7 \
    --cmdprio_bssplit=8k/40/2/0:4k/25/1/1:4k/75/3/2 --numjobs=2 --group_reporting \
    --output-format=json >"$tmp/grp.json" || fail "$engine cmdprio_bssplit, group: exit $?"
  python3 - "$tmp/adv.json" "$tmp/adv_clat.1.log" "$tmp/grp.json" <<'PY' || fail "$engine cmdprio_bssplit, several priorities"
import collections, json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
rd = j["read"]
n, b = rd["total_ios"], rd["io_bytes"]
n4k = (8192 * n - b) // 4096
n8k = n - n4k
prios = rd["prios"]
want = [(2, 7), (1, 1), (3, 2), (2, 0)]
assert [(p["prioclass"], p["prio"]) for p in prios] == want, prios
N = [p["clat_ns"]["N"] for p in prios]
assert N[1] + N[2] == n4k and N[0] + N[3] == n8k, (N, n4k, n8k)
assert 0.20 <= N[1] / n4k <= 0.30 and 0.35 <= N[3] / n8k <= 0.45, (N, n4k, n8k)
assert j["iobench"]["high_prio_ios"]["read"] == N[1] + N[2] + N[3], j["iobench"]
# clat log: "time, clat, ddir, bs, prio" with the priority as fio's 0x%04x.
logged = collections.Counter()
for line in open(sys.argv[2]):
    f = [x.strip() for x in line.split(",")]
    logged[(int(f[3]), int(f[4], 16))] += 1
assert logged == {(8192, 0x4007): N[0], (4096, 0x2001): N[1], (4096, 0x6002): N[2],
                  (8192, 0x4000): N[3]}, (logged, N)
g = json.load(open(sys.argv[3]))["jobs"][0]["read"]
assert [(p["prioclass"], p["prio"]) for p in g["prios"]] == want, g["prios"]
assert sum(p["clat_ns"]["N"] for p in g["prios"]) == g["total_ios"] == 2000, g["total_ios"]
PY
done
if fio_side; then  # fio 3.33 lists the same priorities in the same order
  fio --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --direct=1 --iodepth=4 \
    --rw=randread --bssplit=4k/50:8k/50 --number_ios=4000 --prioclass=2 --prio=7 \
    --cmdprio_bssplit=8k/40/2/0:4k/25/1/1:4k/75/3/2 --output-format=json >"$tmp/fio.json" ||
    fail "fio: exit $?"
  python3 - "$tmp/fio.json" "$tmp/adv.json" <<'PY' || fail "priority order differs from fio's"
import json, sys
order = [[(p["prioclass"], p["prio"]) for p in json.load(open(f))["jobs"][0]["read"]["prios"]]
         for f in sys.argv[1:]]
assert order[0] == order[1], order
PY
fi
# An entry of class 0 is best effort, as fio's ioprio_value() makes it: the
# kernel takes 4k/50/0/3 as 2/3 (class 0 with a level is EINVAL), and 4k/50/0/0
# is 2/0, a priority of its own beside the job's 0/0.
for split in 4k/50/0/3 4k/50/0/0; do
  "$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=io_uring --iodepth=2 --rw=randread \
    --number_ios=400 --cmdprio_bssplit=$split --output-format=json >"$tmp/c0.json" ||
    fail "cmdprio_bssplit=$split: exit $?"
  python3 - "$tmp/c0.json" "${split##*/}" <<'PY' || fail "cmdprio_bssplit=$split: prios"
import json, sys
rd = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert rd["total_ios"] == 400, rd["total_ios"]
assert [(p["prioclass"], p["prio"]) for p in rd["prios"]] == [(0, 0), (2, int(sys.argv[2]))], rd["prios"]
PY
done
# The shares of one size add up to at most 100 % (fio refuses more, too).
"$bin" --name=p --filename="$tmp/f" --size=16m --ioengine=libaio --rw=randread --number_ios=10 \
  --cmdprio_bssplit=4k/60/1/0:8k/50:4k/50/2/3 >/dev/null 2>"$tmp/err" &&
  fail "4k shares of 110 % accepted"
grep -q "cmdprio_bssplit.*block size 4096 add up to 110 %" "$tmp/err" ||
  fail "110 %: $(cat "$tmp/err")"
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
# Nor with one priority only: cmdprio_percentage=100 puts every I/O at 1/0,
# and fio shows the split only when two priorities have samples.
"$bin" --name=p --filename="$tmp/f" --size=64k --ioengine=io_uring --iodepth=2 --rw=read \
  --cmdprio_percentage=100 --output-format=json,normal >"$tmp/one.out" || fail "one prio: exit $?"
grep -q '"prios"\|clat prio' "$tmp/one.out" && fail "one priority split: $(cat "$tmp/one.out")"
grep -q '"read" : 16' "$tmp/one.out" || fail "one prio: high_prio_ios: $(cat "$tmp/one.out")"
"$bin" --name=p --filename="$tmp/f" --size=1m --ioengine=psync --cmdprio_percentage=30 \
  --number_ios=1 >/dev/null 2>"$tmp/err" && fail "psync accepted cmdprio_percentage"
grep -q "cmdprio_percentage" "$tmp/err" || fail "refusal does not name the option: $(cat "$tmp/err")"
echo ok
