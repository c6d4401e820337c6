#!/bin/bash
# ctest-cost: 5
# The "N% of the region the job reads is holes" warning (docs/context.md,
# warning 7) is of the job's region for a direct=1 job too. The regions
# were collected for the buffered jobs only (for the page cache figure), so
# a direct job's holes were the whole file's: 4 MiB of data read from a
# 32 MiB file fallocated past 8 MiB warned "75.0%", and 1 MiB of holes read
# from a 128 MiB file said nothing (0.78% of the file, under the 1% bar).
# The page cache figure stays of the buffered jobs' regions.
# A file system that reads unwritten space and punched holes as holes
# (SEEK_DATA), not in memory: /var/tmp on most hosts.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v fallocate >/dev/null || { echo "skip: no fallocate"; exit 77; }
case "$(stat -f -c %T /var/tmp 2>/dev/null)" in
  tmpfs | ramfs | "") echo "skip: /var/tmp is in memory or missing"; exit 77 ;;
esac
dir=$(mktemp -d /var/tmp/iobench_holes_direct.XXXXXX) || { echo "skip: no /var/tmp"; exit 77; }
trap 'cd /; rm -rf "$tmp" "$dir"' EXIT
cd "$dir" || exit 1

# h2: 32 MiB, the first 8 MiB written, the rest fallocated and unwritten.
# h3: 128 MiB written, its first 1 MiB punched out.
dd if=/dev/urandom of=h2 bs=1M count=8 status=none
dd if=/dev/zero of=h3 bs=1M count=128 status=none
sync h2 h3
if ! fallocate -o 8M -l 24M h2 2>/dev/null || ! fallocate -p -o 0 -l 1M h3 2>/dev/null; then
  echo "skip: $(stat -f -c %T .) takes no fallocate or hole punching"
  exit 77
fi
# Unwritten space must read as a hole (SEEK_DATA past it: ENXIO at the end).
python3 -c 'import os,sys
fd = os.open("h2", os.O_RDONLY)
try:
    os.lseek(fd, 8 << 20, os.SEEK_DATA)
except OSError:
    sys.exit(0)
sys.exit(1)' || { echo "skip: $(stat -f -c %T .) does not report unwritten space as holes"; exit 77; }

warn() {  # FILE PERCENT: the warning's text
  echo "warning: job 'x': $1: $2 of the region the job reads is holes (never written: sparse, fallocated or trimmed): reads there return zeros with no device I/O; write the file first (a file as large as the job needs is read as it is, as in fio)"
}
holes() {  # options...: the holes warnings of the run, one a line
  "$bin" --name=x --bs=4k --rw=randread --ioengine=psync "$@" >out.txt 2>err.txt ||
    fail "$*: exit $?: $(cat err.txt)"
  grep "is holes" out.txt
}

for direct in 1 0; do
  expect_eq "direct=$direct: data only (0-4 MiB of h2)" \
    "$(holes --filename=h2 --size=4m --direct=$direct)" ""
  expect_eq "direct=$direct: fallocated only (16-24 MiB of h2)" \
    "$(holes --filename=h2 --offset=16m --size=8m --direct=$direct)" "$(warn h2 100.0%)"
  expect_eq "direct=$direct: half (4-12 MiB of h2)" \
    "$(holes --filename=h2 --offset=4m --size=8m --direct=$direct)" "$(warn h2 50.0%)"
  expect_eq "direct=$direct: the punched 1 MiB of h3" \
    "$(holes --filename=h3 --size=1m --direct=$direct)" "$(warn h3 100.0%)"
  # Clones: the union of their regions, 0-1 and 4-5 MiB.
  expect_eq "direct=$direct: numjobs=2 offset_increment=4m on h3" \
    "$(holes --filename=h3 --size=1m --numjobs=2 --offset_increment=4m --direct=$direct)" \
    "$(warn h3 50.0%)"
  # Two files: 1 MiB of each, h2's data and h3's hole.
  expect_eq "direct=$direct: filename=h2:h3" \
    "$(holes --filename=h2:h3 --size=2m --direct=$direct)" "$(warn h3 100.0%)"
done

# A direct and a buffered job on one file: the holes are of both regions
# (0-4 MiB data, 16-20 MiB fallocated), the page cache figure of the
# buffered job's alone; a direct job alone measures no page cache.
out=$("$bin" --name=b --filename=h2 --size=4m --direct=0 --bs=4k --rw=randread \
  --name=d --filename=h2 --offset=16m --size=4m --direct=1 --bs=4k --rw=randread \
  --output-format=json 2>err.txt) || fail "two jobs: $(cat err.txt)"
expect_eq "two jobs: holes, page cache region" "$(python3 -c 'import json,sys
c = json.loads(sys.stdin.read())["iobench"]["context"]
t = c["targets"][0]
w = [x for x in c["warnings"] if "is holes" in x]
print(len(w), "50.0%" in w[0] if w else "", t["page_cache_region_bytes"])' <<<"$out")" "2 True 4194304"
out=$("$bin" --name=d --filename=h2 --offset=16m --size=4m --direct=1 --bs=4k --rw=randread \
  --output-format=json 2>err.txt) || fail "direct job: $(cat err.txt)"
expect_eq "direct job: no page cache figure" "$(python3 -c 'import json,sys
t = json.loads(sys.stdin.read())["iobench"]["context"]["targets"][0]
print(t["page_cache_percent"], t["page_cache_region_bytes"])' <<<"$out")" "-1.0 0"

# The btrfs extents (warning 8) are of a direct job's region too: a file
# half stored compressed, a direct read of either half. Root and btrfs only.
cd "$tmp" && rm -rf "$dir"
if [ "$(id -u)" -eq 0 ] && command -v mkfs.btrfs >/dev/null && command -v losetup >/dev/null &&
  { grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null; }; then
  source "$2/tests/e2e/scratch_ext4.bash"
  scratch_loop 512m 512
  if mkfs.btrfs -q -f "$loop" >/dev/null 2>&1 && mount -o compress=zstd "$loop" "$mnt"; then
    dd if=/dev/zero of="$mnt/h" bs=1M count=2 status=none
    dd if=/dev/urandom of="$mnt/h" bs=1M count=2 seek=2 conv=notrunc status=none
    sync
    compressed() {  # options...: the compression warnings of a direct read
      "$bin" --name=x --filename="$mnt/h" --bs=64k --rw=read --direct=1 "$@" >out.txt 2>err.txt ||
        fail "btrfs $*: exit $?: $(cat err.txt)"
      grep -o "$mnt/h: [0-9.]*% of the region the job reads is stored compressed" out.txt
    }
    expect_eq "btrfs direct: the compressed half" "$(compressed --size=2m)" \
      "$mnt/h: 100.0% of the region the job reads is stored compressed"
    expect_eq "btrfs direct: the random half" "$(compressed --offset=2m --size=2m)" ""
  else
    echo "skip btrfs: cannot make or mount it"
  fi
else
  echo "skip btrfs: needs root and btrfs"
fi
[ "$fails" -eq 0 ]
