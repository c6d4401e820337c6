#!/usr/bin/env bash
# latency_target / latency_window / latency_percentile against real fio 3.33
# on the same jobs, chosen so that no timing changes the outcome:
#   met     (null engine, a 10 s target): the depth doubles to iodepth=8, one
#           final window runs there, the job ends: depth 8, ~one window of
#           runtime;
#   missed  (O_DIRECT writes to a file on / , a 1 us target): the first I/O
#           misses it at depth 1, the job fails with ETIMEDOUT after 1 I/O;
#   pct     (the same with latency_percentile=50): the depth stays 1 and the
#           job runs its runtime.
# Compared: the JSON's latency_depth/target/window/percentile, error, I/O
# counts and runtime class, and the normal report's "latency   :" line.
set -u
bin=$1
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d /var/tmp/iobench_lt.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/met.fio" <<'EOF'
[met]
ioengine=null
size=1g
time_based
runtime=30
rate_iops=2000
iodepth=8
latency_target=10s
latency_window=200ms
EOF
run_both() {  # name jobfile
  fio --output-format=json --output="$tmp/$1.fio.json" "$2" >/dev/null 2>&1
  "$bin" --output-format=json --output="$tmp/$1.iob.json" "$2" >/dev/null 2>"$tmp/$1.err"
  [ -s "$tmp/$1.iob.json" ] || fail "$1: iobench wrote no report: $(cat "$tmp/$1.err")"
  [ -s "$tmp/$1.fio.json" ] || fail "$1: fio wrote no report"
}
run_both met "$tmp/met.fio"

direct=1
dd if=/dev/zero of="$tmp/probe" bs=4k count=1 oflag=direct 2>/dev/null || direct=0
if [ "$direct" = 1 ]; then
  for name in missed pct; do
    {
      echo "[$name]"
      echo "ioengine=psync"
      echo "rw=write"
      echo "direct=1"
      echo "bs=4k"
      echo "size=1m"
      echo "filename=$tmp/data.$name"
      echo "latency_target=1us"
      if [ "$name" = pct ]; then
        echo "latency_percentile=50"
        echo "latency_window=100ms"
        echo "time_based"
        echo "runtime=600ms"
      fi
    } >"$tmp/$name.fio"
    # Lay the file out first: both tools then write over the same blocks.
    dd if=/dev/zero of="$tmp/data.$name" bs=1M count=1 2>/dev/null
    run_both "$name" "$tmp/$name.fio"
  done
fi

python3 - "$tmp" "$direct" <<'EOF' || exit 1
import json, sys, os
tmp, direct = sys.argv[1], sys.argv[2] == "1"
bad = []
def job(name, tool):
    return json.load(open(os.path.join(tmp, f"{name}.{tool}.json")))["jobs"][0]
cases = {"met": (8, 10000000000, 200000, 100.0, 0)}
if direct:
    cases["missed"] = (1, 1000, 0, 100.0, 110)
    cases["pct"] = (1, 1000, 100000, 50.0, 0)
for name, (depth, target, window, pct, err) in cases.items():
    for tool in ("fio", "iob"):
        j = job(name, tool)
        got = (j["latency_depth"], j["latency_target"], j["latency_window"],
               j["latency_percentile"], j["error"])
        if got != (depth, target, window, pct, err):
            bad.append(f"{tool} {name}: depth/target/window/percentile/error {got}, "
                       f"want {(depth, target, window, pct, err)}")
        rt = j["job_runtime"]
        ios = j["read"]["total_ios"] + j["write"]["total_ios"]
        if name == "met" and not (150 <= rt <= 2000 and ios > 0):
            bad.append(f"{tool} met: runtime {rt} ms, {ios} I/Os (want one final window)")
        if name == "missed" and ios != 1:
            bad.append(f"{tool} missed: {ios} I/Os, want 1")
        if name == "pct" and rt < 550:
            bad.append(f"{tool} pct: runtime {rt} ms, want the whole 600 ms")
if bad:
    print("FAIL:\n  " + "\n  ".join(bad))
    sys.exit(1)
EOF

# The normal report's line is fio's, character for character.
fio "$tmp/met.fio" 2>/dev/null | grep '     latency   :' >"$tmp/fio.line"
"$bin" "$tmp/met.fio" 2>/dev/null | grep '     latency   :' >"$tmp/iob.line"
[ "$(cat "$tmp/fio.line")" = "     latency   : target=10000000000, window=200000, percentile=100.00%, depth=8" ] ||
  fail "fio line: $(cat "$tmp/fio.line")"
cmp -s "$tmp/fio.line" "$tmp/iob.line" || fail "iobench line: $(cat "$tmp/iob.line")"

# Hostile values: the option and the line.
printf '[j]\nioengine=null\nsize=1m\nlatency_target=1ms\nlatency_percentile=150\n' >"$tmp/bad.fio"
out=$("$bin" --parse-only "$tmp/bad.fio" 2>&1) && fail "latency_percentile=150 accepted"
grep -q "bad.fio:5:.*latency_percentile 150 is outside 0..100" <<<"$out" || fail "message: $out"
echo ok
