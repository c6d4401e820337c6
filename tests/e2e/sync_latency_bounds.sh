#!/bin/bash
# A latency cannot be longer than the run that measured it. fsync=N,
# fdatasync=N and sync_file_range's latencies read as the time since boot
# (12 hours: "sync (msec): min=44921k") on every engine, because the sync's
# issue stamp was never taken; the tests counted syncs but never bounded
# their latency. For each engine and sync kind, on tmpfs and ext4: every
# sync and write latency (min and max, JSON sync.lat_ns and write.clat_ns)
# is positive and below the process's own wall time, measured around it.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
ext4=$(mktemp -d /var/tmp/iobench_synclat.XXXXXX) || exit 1
trap 'cd /; rm -rf "$tmp" "$ext4"' EXIT

for dir in "$tmp" "$ext4"; do
  for engine in psync sync pvsync2 vsync libaio io_uring posixaio mmap; do
    for sync in fsync=2 fdatasync=3 sync_file_range=write:4; do
      # mmap syncs with msync; sync_file_range is for the sync engines.
      case $engine:$sync in mmap:sync_file_range*) continue ;; esac
      t0=$(date +%s%N)
      "$bin" --name=j --filename="$dir/f" --ioengine=$engine --iodepth=4 --rw=write --bs=4k \
        --size=256k "--$sync" --output-format=json >out.json 2>err.txt
      rc=$?
      t1=$(date +%s%N)
      if [ "$rc" -ne 0 ]; then
        fail "$engine $sync on $dir: exit $rc: $(head -c 200 err.txt)"
        continue
      fi
      python3 - out.json $((t1 - t0)) "$engine $sync on ${dir%%/iobench*}" <<'PY' || fails=$((fails + 1))
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
wall, what = int(sys.argv[2]), sys.argv[3]
bad = []
for name, lat in (("sync", j["sync"]["lat_ns"]), ("write clat", j["write"]["clat_ns"])):
    if lat["N"] == 0:
        bad.append(f"{name}: no samples")
    elif not (0 < lat["min"] <= lat["max"] < wall):
        bad.append(f"{name}: min {lat['min']} max {lat['max']} ns, the run took {wall} ns")
if bad:
    print(f"FAIL: {what}: " + "; ".join(bad))
    sys.exit(1)
print(f"ok   {what}: sync max {j['sync']['lat_ns']['max']} ns, {j['sync']['lat_ns']['N']} syncs")
PY
    done
  done
done
[ "$fails" -eq 0 ] && echo "ok: every sync latency is within its run"
[ "$fails" -eq 0 ]
