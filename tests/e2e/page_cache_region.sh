#!/usr/bin/env bash
# ctest-cost: 10
# The context header's page_cache figure is of the job's region
# (offset..offset+size), not of the whole file, and the work is bounded.
# iobench mmapped and mincore()d every page of the target file: a 4 KiB
# job on a sparse 15 TiB ext4 file took 43.7 s to start (fio 3.33: 0.34 s)
# and said page_cache=0.0% for a region that was all in the cache; a 2^60
# byte sparse tmpfs file scanned for more than 8 minutes.
# `timeout` below is a hang guard only, not a timing assertion.
set -u
bin=$1
source "$2/tests/e2e/check.bash"
for base in /var/tmp /dev/shm; do
  [ -d "$base" ] || continue
  tmp=$(mktemp -d "$base/iobench_pcregion.XXXXXX") || continue
  f=$tmp/big
  truncate -s 15T "$f" 2>/dev/null || { rm -rf "$tmp"; echo "skip $base: no 15T file"; continue; }
  # 64 KiB written (so in the page cache) at 1, 2 and 3 TiB; the 64 KiB
  # after each is a hole. Each check uses its own spot, measured before its
  # own reads (ext4 caches the holes a run reads, and reads ahead);
  # invalidate=0 keeps what dd wrote cached.
  for t in 1 2 3; do
    dd if=/dev/urandom of="$f" bs=64k count=1 seek=$((t << 24)) conv=notrunc status=none
  done
  run() {  # run ARGS...: prints "percent region_bytes examined_bytes"
    timeout 60 "$bin" --name=x --filename="$f" --rw=read --bs=4k --invalidate=0 "$@" \
      --output-format=json \
      >"$tmp/o.json" || { echo "exit $?"; return; }
    python3 -c 'import json,sys
t = json.load(open(sys.argv[1]))["iobench"]["context"]["targets"][0]
print("%.1f %d %d" % (t["page_cache_percent"], t["page_cache_region_bytes"], t["page_cache_examined_bytes"]))' \
      "$tmp/o.json"
  }
  expect_eq "$base: the cached 64 KiB" "$(run --offset=1T --size=64k)" "100.0 65536 65536"
  expect_eq "$base: 64 KiB cached of 128 KiB" "$(run --offset=2T --size=128k)" "50.0 131072 131072"
  # numjobs clones at offset_increment=64k: their regions' union, 128 KiB.
  expect_eq "$base: two clones' regions" \
    "$(run --offset=3T --size=64k --numjobs=2 --offset_increment=64k)" "50.0 131072 131072"
  # A hole far from it: nothing cached.
  expect_eq "$base: a region in a hole" "$(run --size=4k)" "0.0 4096 4096"
  # The whole 15 TiB file (size unset, io_size 4k): sampled, 4 GiB examined
  # (256 slices of 16 MiB), the rest not looked at.
  expect_eq "$base: the whole file is sampled" "$(run --io_size=4k)" \
    "0.0 $((15 << 40)) $((4 << 30))"
  timeout 60 "$bin" --name=x --filename="$f" --rw=read --bs=4k --io_size=4k |
    grep -q "page_cache=0.0% (sampled 4096MiB of 15.0TiB)" ||
    fail "$base: the header does not say the figure was sampled"
  rm -rf "$tmp"
done
[ "$fails" -eq 0 ]
