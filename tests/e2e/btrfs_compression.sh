#!/bin/bash
# btrfs stores data that compresses compressed (the compress and
# compress-force mount options, chattr +c, the btrfs.compression property):
# the disk then moves less than the job counts, and the kernel's CPU does the
# work. The report warns (header and JSON, not stderr) when a job writes
# data that compresses (zero_buffers, buffer_compress_percentage,
# buffer_pattern, verify=pattern) where btrfs will compress it, and when a
# job reads a region stored compressed; direct=1 reads of such data go
# through the page cache. Each claim is checked against filefrag/fincore.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v mkfs.btrfs >/dev/null || { echo "skip: no mkfs.btrfs"; exit 77; }
grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null
grep -qw btrfs /proc/filesystems || { echo "skip: the kernel has no btrfs"; exit 77; }
command -v filefrag >/dev/null || { echo "skip: no filefrag"; exit 77; }
scratch_loop 512m 512
mkfs.btrfs -q -f "$loop" >/dev/null 2>&1 || { echo "skip: mkfs.btrfs failed"; exit 77; }
remount() {
  mountpoint -q "$mnt" && umount "$mnt"
  mount ${1:+-o "$1"} "$loop" "$mnt" || { echo "skip: cannot mount btrfs -o $1"; exit 77; }
}
# Share of a file's extents flagged encoded (filefrag), after writeback.
encoded() {
  sync
  filefrag -v "$1" | awk -F: '/^ *[0-9]+:/ { n++; if ($0 ~ /encoded/) e++ } END { print (n && e == n) ? "all" : (e ? "some" : "none") }'
}
warnings() { # the JSON report's warnings, one per line
  python3 -c 'import json,sys; [print(w) for w in json.load(open(sys.argv[1]))["iobench"]["context"]["warnings"]]' "$1"
}
run_json() { # run_json NAME ARGS...: out.json, warn.txt; stderr must stay empty
  local name=$1
  shift
  "$bin" --name=j --bs=64k --size=4m --output-format=json "$@" >out.json 2>err.txt
  expect_eq "$name: exit" "$?" 0
  [ -s err.txt ] && fail "$name: stderr: $(cat err.txt)"
  warnings out.json >warn.txt
}

remount compress=zstd
opt=$(awk -v m="$mnt" '$5 == m { print $NF }' /proc/self/mountinfo | tr , '\n' | grep '^compress=')
[ -n "$opt" ] || { echo "skip: the mount table shows no compress= option"; exit 77; }

# 1. zero_buffers into a new file that is not preallocated: compressed.
run_json "zero_buffers" --filename="$mnt/z" --rw=write --zero_buffers=1 --fallocate=none
expect_eq "zero_buffers: warning" "$(cat warn.txt)" \
  "job 'j': writes data that compresses (zero_buffers=1) to $mnt/z, and btrfs $opt stores it compressed: the disk writes less than the job counts, and the kernel spends CPU compressing; write fresh random data (refill_buffers=1) to measure the disk"
expect_eq "zero_buffers: stored" "$(encoded "$mnt/z")" all

# 2. The same into preallocated space (fallocate=native, the default):
# btrfs writes it in place, uncompressed, and says nothing.
run_json "fallocated" --filename="$mnt/p" --rw=write --zero_buffers=1
grep -q compress warn.txt && fail "fallocated: $(cat warn.txt)"
expect_eq "fallocated: stored" "$(encoded "$mnt/p")" none
# A file once fallocated is never compressed again (btrfs keeps a flag on
# the inode that nothing shows): its rewrites get no warning either, with
# or without preallocation this time.
for fa in native none; do
  run_json "fallocated again ($fa)" --filename="$mnt/p" --rw=write --zero_buffers=1 --fallocate=$fa
  grep -q compress warn.txt && fail "fallocated again ($fa): $(cat warn.txt)"
  expect_eq "fallocated again ($fa): stored" "$(encoded "$mnt/p")" none
done
# fallocate=keep preallocates past the end: not compressed, no warning.
run_json "keep" --filename="$mnt/k" --rw=write --zero_buffers=1 --fallocate=keep
grep -q compress warn.txt && fail "fallocate=keep: $(cat warn.txt)"
expect_eq "fallocate=keep: stored" "$(encoded "$mnt/k")" none

# 3. Fresh random data for each write does not compress: no warning, none
# stored. fio's default rewrites the same buffer, which btrfs may find
# repeated within the 128 KiB it compresses at once: a warning that says
# "may" (fio's own 4k writes were all stored compressed).
run_json "random" --filename="$mnt/r" --rw=write --fallocate=none --refill_buffers=1
grep -q compress warn.txt && fail "random: $(cat warn.txt)"
expect_eq "random: stored" "$(encoded "$mnt/r")" none
run_json "reused" --filename="$mnt/u" --rw=write --fallocate=none
expect_eq "reused: warning" "$(cat warn.txt)" \
  "job 'j': writes its buffers again and again (refill_buffers=0, fio's default) to $mnt/u, and btrfs $opt may store it compressed: the disk may write less than the job counts; write fresh random data (refill_buffers=1) to measure the disk"
run_json "dedupe" --filename="$mnt/d" --rw=write --fallocate=none --dedupe_percentage=50
grep -q compress warn.txt && fail "dedupe refills: $(cat warn.txt)"

# 4. The other ways a job's data compresses are named.
run_json "bcp" --filename="$mnt/c" --rw=randwrite --buffer_compress_percentage=75 --fallocate=none
grep -qF "writes data that compresses (buffer_compress_percentage=75) to $mnt/c" warn.txt ||
  fail "buffer_compress_percentage: $(cat warn.txt)"
# Under half compressible: btrfs's heuristic lets it through or not.
run_json "bcp25" --filename="$mnt/c25" --rw=write --buffer_compress_percentage=25 --fallocate=none
grep -qF "writes data that partly compresses (buffer_compress_percentage=25) to $mnt/c25, and btrfs $opt may store it compressed" warn.txt ||
  fail "buffer_compress_percentage=25: $(cat warn.txt)"
run_json "pattern" --filename="$mnt/b" --rw=write --buffer_pattern=0xdeadbeef --fallocate=none
grep -qF "writes data that compresses (buffer_pattern) to $mnt/b" warn.txt ||
  fail "buffer_pattern: $(cat warn.txt)"
expect_eq "buffer_pattern: stored" "$(encoded "$mnt/b")" all

# 5. Reads of data stored compressed: the share, and with direct=1 the page
# cache that btrfs reads it through.
run_json "read" --filename="$mnt/z" --rw=read
expect_eq "read: warning" "$(grep compress warn.txt)" \
  "job 'j': $mnt/z: 100.0% of the region the job reads is stored compressed (btrfs): the disk reads less than the job counts, and the kernel spends CPU decompressing; write the file with data that does not compress"
drop_file_cache "$mnt/z"
run_json "direct read" --filename="$mnt/z" --rw=randread --direct=1
grep -qF "100.0% of the region the job reads is stored compressed (btrfs): the disk reads less than the job counts, and the kernel spends CPU decompressing; btrfs serves O_DIRECT reads of compressed data through the page cache, so direct=1 measures buffered reads there" warn.txt ||
  fail "direct read: $(cat warn.txt)"
if command -v fincore >/dev/null; then
  cached=$(fincore -nb -o RES "$mnt/z" | tr -d ' ')
  [ "${cached:-0}" -gt 0 ] || fail "direct read: the claim does not hold: nothing cached"
fi
# Half of a file compressed, and a read of the other half only.
dd if=/dev/zero of="$mnt/h" bs=1M count=2 status=none
dd if=/dev/urandom of="$mnt/h" bs=1M count=2 seek=2 conv=notrunc status=none
sync
run_json "half" --filename="$mnt/h" --rw=read
grep -qF "$mnt/h: 50.0% of the region the job reads is stored compressed" warn.txt ||
  fail "half: $(cat warn.txt)"
run_json "random half" --filename="$mnt/h" --rw=read --offset=2m --size=2m
grep -q compress warn.txt && fail "random half: $(cat warn.txt)"
run_json "random read" --filename="$mnt/r" --rw=read
grep -q compress warn.txt && fail "random read: $(cat warn.txt)"

# 6. A file that must not be compressed (chattr +m) is not: no warning.
if command -v chattr >/dev/null; then
  touch "$mnt/m"
  if chattr +m "$mnt/m" 2>/dev/null; then
    run_json "chattr +m" --filename="$mnt/m" --rw=write --zero_buffers=1 --fallocate=none
    grep -q compress warn.txt && fail "chattr +m: $(cat warn.txt)"
    expect_eq "chattr +m: stored" "$(encoded "$mnt/m")" none
  fi
fi

# 7. compress-force: even data a quarter compressible is.
remount compress-force=zstd
opt=$(awk -v m="$mnt" '$5 == m { print $NF }' /proc/self/mountinfo | tr , '\n' | grep '^compress-force=')
run_json "force" --filename="$mnt/f" --rw=write --buffer_compress_percentage=25 --fallocate=none
grep -qF "writes data that compresses (buffer_compress_percentage=25) to $mnt/f, and btrfs $opt stores it compressed" warn.txt ||
  fail "force: $(cat warn.txt)"
expect_eq "force: stored" "$(encoded "$mnt/f")" all

# A nodatasum mount makes files btrfs cannot compress: no warning.
remount compress=zstd,nodatasum
run_json "nodatasum" --filename="$mnt/ns" --rw=write --zero_buffers=1 --fallocate=none
grep -q compress warn.txt && fail "nodatasum: $(cat warn.txt)"
expect_eq "nodatasum: stored" "$(encoded "$mnt/ns")" none

# 8. No mount option: a directory's compression attribute, inherited by the
# files made in it, and the btrfs.compression property (which sets the
# file's attribute too).
remount ""
if command -v chattr >/dev/null && mkdir "$mnt/cd" && chattr +c "$mnt/cd" 2>/dev/null; then
  run_json "chattr +c" --filename="$mnt/cd/f" --rw=write --zero_buffers=1 --fallocate=none
  grep -qF "to $mnt/cd/f, and the file's compression attribute (chattr +c) stores it compressed" warn.txt ||
    fail "chattr +c: $(cat warn.txt)"
  expect_eq "chattr +c: stored" "$(encoded "$mnt/cd/f")" all
fi
if command -v btrfs >/dev/null && mkdir "$mnt/pd" && btrfs property set "$mnt/pd" compression zstd 2>/dev/null; then
  run_json "property" --filename="$mnt/pd/f" --rw=write --zero_buffers=1 --fallocate=none
  grep -qF "to $mnt/pd/f, and the file's compression attribute (chattr +c) stores it compressed" warn.txt ||
    fail "property: $(cat warn.txt)"
  expect_eq "property: stored" "$(encoded "$mnt/pd/f")" all
fi
run_json "no compression" --filename="$mnt/n" --rw=write --zero_buffers=1 --fallocate=none
grep -q compress warn.txt && fail "no compression: $(cat warn.txt)"
expect_eq "no compression: stored" "$(encoded "$mnt/n")" none

# 9. An overlay whose upper directory is on the btrfs: reads of compressed
# data warn through it (FIEMAP answers through the overlay), also when it
# was mounted with relative directories, and its readahead is btrfs's bdi.
remount compress=zstd
trap 'umount "$tmp/ovl" 2>/dev/null; scratch_cleanup' EXIT
mkdir -p "$mnt/up" "$mnt/wk" lower ovl
dd if=/dev/zero of="$mnt/up/o" bs=1M count=2 status=none
sync
fsid=$(for d in /sys/fs/btrfs/*/devices/"${loop#/dev/}"; do [ -e "$d" ] && basename "$(dirname "$(dirname "$d")")"; done | head -1)
if [ -n "$fsid" ] && mount -t overlay overlay -o "lowerdir=$PWD/lower,upperdir=$mnt/up,workdir=$mnt/wk" ovl 2>/dev/null; then
  echo 3072 >"/sys/fs/btrfs/$fsid/bdi/read_ahead_kb"
  echo 256 >"/sys/block/${loop#/dev/}/queue/read_ahead_kb"
  run_json "overlay" --filename=ovl/o --rw=read --size=2m
  grep -qF "ovl/o: 100.0% of the region the job reads is stored compressed (btrfs)" warn.txt ||
    fail "overlay read: $(cat warn.txt)"
  expect_eq "overlay read_ahead_kb" \
    "$(python3 -c 'import json; print(json.load(open("out.json"))["iobench"]["context"]["targets"][0]["read_ahead_kb"])')" 3072
  umount ovl
  rm -rf "$mnt/wk"/* 2>/dev/null
  mkdir -p "$mnt/wk"
  if (cd "$mnt" && mount -t overlay overlay -o lowerdir=up,upperdir=up2,workdir=wk "$tmp/ovl") 2>/dev/null ||
    { mkdir -p "$mnt/up2" && (cd "$mnt" && mount -t overlay overlay -o lowerdir=up,upperdir=up2,workdir=wk "$tmp/ovl"); }; then
    run_json "relative overlay" --filename=ovl/o --rw=read --size=2m
    grep -qF "ovl/o: 100.0% of the region the job reads is stored compressed (btrfs)" warn.txt ||
      fail "relative overlay read: $(cat warn.txt)"
    umount "$tmp/ovl"
  fi
fi

[ "$fails" -eq 0 ]
