#!/bin/bash
# Writes that reach a mounted filesystem through stacked loop devices, and
# files iobench writes besides its targets (docs/safety.md), root only.
# An ext4 image e.img on loop device A, mounted read-only (so its bytes
# change only if iobench writes them), and over it:
#   B = a loop device over A,  C = a second loop device over e.img,
#   D = a loop device over B.
#  - writing B, C or D is refused before any I/O, naming the chain down to
#    the mount point; reading them runs
#  - mem=mmapshared:e.img / iomem=mmap:e.img (a read job) is refused, also
#    with allow_mounted_write=1, and e.img keeps its size
#  - write_iolog=e.img, --output=e.img, --output=B and a bandwidth log whose
#    file is a symlink to B or to e.img are refused
#  - an unmounted image's loop device is written, and a log to a new file
#  - with ext4 on partition 1 of an MBR image on loop device P: a loop
#    device over P, and partition 1 of a partitioned loop device over P,
#    are refused; P's partition 2 is written (skipped on kernels without
#    MBR partitions)
# The mounted data's SHA-256 is unchanged at the end. A trap unmounts and
# detaches, also when a check fails.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no loop
# devices, no mkfs.ext4).
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop devices, mount)"; exit 77; }
for t in losetup mkfs.ext4 sha256sum; do
  command -v $t >/dev/null || { echo "skip: needs $t"; exit 77; }
done
source "$2/tests/e2e/check.bash"

work=$(mktemp -d /var/tmp/iobench-loopstack.XXXXXX)
loops=()  # attached here, detached in reverse order
mounted=""
mounted2=""
cleanup() {
  [ -n "$mounted2" ] && umount "$work/mnt2" 2>/dev/null
  [ -n "$mounted" ] && umount "$work/mnt" 2>/dev/null
  local i
  for ((i = ${#loops[@]} - 1; i >= 0; i--)); do losetup -d "${loops[i]}" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

truncate -s 16m "$work/e.img"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$work/e.img" ||
  { echo "skip: mkfs.ext4 failed"; exit 77; }
A=$(losetup -f --show "$work/e.img" 2>/dev/null) || { echo "skip: no loop device"; exit 77; }
loops+=("$A")
mkdir "$work/mnt"
mount -o ro "$A" "$work/mnt" || { echo "skip: cannot mount $A"; exit 77; }
mounted=1
B=$(losetup -f --show "$A") && loops+=("$B") || { echo "skip: no loop device for B"; exit 77; }
C=$(losetup -f --show "$work/e.img") && loops+=("$C") || { echo "skip: no loop device for C"; exit 77; }
D=$(losetup -f --show "$B") && loops+=("$D") || { echo "skip: no loop device for D"; exit 77; }
truncate -s 16m "$work/other.img"
E=$(losetup -f --show "$work/other.img") && loops+=("$E") || { echo "skip: no loop device for E"; exit 77; }
head -c 1m /dev/zero >"$work/f.dat"
echo "A=$A (mounted) B=$B (over A) C=$C (over e.img) D=$D (over B) E=$E (unmounted)"

sum() { sha256sum "$work/e.img" | cut -d' ' -f1; }
before=$(sum)
size_before=$(stat -c %s "$work/e.img")


mnt="mounted at $work/mnt \(ext4\)"
w=(--rw=write --bs=4k --size=64k --offset=4m --direct=1)
expect_run loop-over-mounted-device 2 \
  "refusing to write to $B \([^)]*\): is over $A \(its backing device\), $mnt.*allow_mounted_write=1" -- \
  "$bin" --name=j --filename="$B" "${w[@]}"
expect_run loop-over-mounted-image 2 \
  "refusing to write to $C \([^)]*\): is over $work/e.img \(its backing file\), which backs $A, $mnt" -- \
  "$bin" --name=j --filename="$C" "${w[@]}"
expect_run loop-over-loop-over-mounted 2 \
  "refusing to write to $D \([^)]*\): is over $B \(its backing device\), which is over $A \(its backing device\), $mnt" -- \
  "$bin" --name=j --filename="$D" "${w[@]}"
expect_run trim-loop-over-mounted 2 "refusing to trim $B .*$mnt" -- \
  "$bin" --name=j --filename="$B" --rw=trim --bs=4k --size=64k --offset=4m
expect_run read-loop-over-mounted 0 "" -- \
  "$bin" --name=j --filename="$C" --rw=read --bs=4k --size=64k --offset=4m
expect_run write-unmounted-loop 0 "" -- \
  "$bin" --name=j --filename="$E" "${w[@]}"

buffers="job 'm': refusing to write the I/O buffers \(mem=mmapshared:$work/e.img at <cmdline>; the file is truncated to their size\) to $work/e.img: backs $A, $mnt"
expect_run mem-file-image 2 "$buffers" -- \
  "$bin" --name=m --filename="$work/f.dat" --rw=read --bs=4k --size=64k --mem=mmapshared:"$work/e.img"
expect_run mem-file-image-allow 2 "$buffers" -- \
  "$bin" --name=m --filename="$work/f.dat" --rw=read --bs=4k --size=64k \
  --mem=mmapshared:"$work/e.img" --allow_mounted_write=1
expect_run iomem-file-image 2 "refusing to write the I/O buffers .* to $work/e.img: backs $A, $mnt" -- \
  "$bin" --name=m --filename="$work/f.dat" --rw=read --bs=4k --size=64k --iomem=mmap:"$work/e.img"
expect_run mem-file-device 2 "refusing to write the I/O buffers .* to $B \([^)]*\): is a block device.*is over $A" -- \
  "$bin" --name=m --filename="$work/f.dat" --rw=read --bs=4k --size=64k --mem=mmapshared:"$B"
expect_eq image-size "$(stat -c %s "$work/e.img")" "$size_before"

expect_run write-iolog-image 2 "refusing to write the I/O log \(write_iolog=$work/e.img at <cmdline>\) to $work/e.img: backs $A, $mnt" -- \
  "$bin" --name=l --filename="$work/f.dat" --rw=read --bs=4k --size=64k --write_iolog="$work/e.img"
expect_run output-device 2 "refusing to write the report \(--output\) to $B \([^)]*\): is a block device \(this would be written over its data\); is over $A \(its backing device\), $mnt" -- \
  "$bin" --output="$B" --name=o --filename="$work/f.dat" --rw=read --bs=4k --size=64k
expect_run output-unmounted-device 2 "refusing to write the report \(--output\) to $E \([^)]*\): is a block device" -- \
  "$bin" --output="$E" --name=o --filename="$work/f.dat" --rw=read --bs=4k --size=64k
expect_run output-image 2 "refusing to write the report \(--output\) to $work/e.img: backs $A, $mnt" -- \
  "$bin" --output="$work/e.img" --name=o --filename="$work/f.dat" --rw=read --bs=4k --size=64k
ln -s "$B" "$work/bl_bw.1.log"
expect_run bw-log-device nonzero "refusing to write a log to $work/bl_bw.1.log \([^)]*\): is a block device" -- \
  "$bin" --name=b --filename="$work/f.dat" --rw=read --bs=4k --size=64k --write_bw_log="$work/bl"
ln -s "$work/e.img" "$work/il_lat.1.log"
expect_run lat-log-image nonzero "refusing to write a log to $work/il_lat.1.log: backs $A, $mnt" -- \
  "$bin" --name=b --filename="$work/f.dat" --rw=read --bs=4k --size=64k --write_lat_log="$work/il" \
  --disable_slat=1 --disable_clat=1
expect_run logs-new-files 0 "" -- \
  "$bin" --output="$work/report.txt" --name=n --filename="$work/f.dat" --rw=read --bs=4k --size=64k \
  --write_bw_log="$work/new" --write_iolog="$work/new.iolog"
[ -s "$work/new_bw.1.log" ] && [ -s "$work/report.txt" ] && [ -s "$work/new.iolog" ] ||
  fail "logs-new-files: a log or the report is missing"

# Partitions: ext4 on the first partition of an MBR image on loop device P
# (-P), mounted; Q a loop device over the whole of P, R a partitioned one.
# Writing Q, or R's first partition, is refused naming the mounted
# partition; P's second partition is written (its sibling's mount is not
# its data).
mbr_byte() {  # mbr_byte OFFSET HEX...: writes the bytes at OFFSET of p.img
  local off=$1
  shift
  local b
  for b in "$@"; do
    printf "\\x$b" | dd of="$work/p.img" bs=1 seek="$off" conv=notrunc status=none
    off=$((off + 1))
  done
}
truncate -s 16m "$work/p.img"
# p1: sectors 2048..16383, p2: 16384..32767 (type 0x83, LBA start, count).
mbr_byte 450 83
mbr_byte 454 00 08 00 00 00 38 00 00
mbr_byte 466 83
mbr_byte 470 00 40 00 00 00 40 00 00
mbr_byte 510 55 aa
if P=$(losetup -f -P --show "$work/p.img" 2>/dev/null); then
  loops+=("$P")
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${P}p2" ] && break; sleep 0.5; done
fi
if [ -n "${P:-}" ] && [ -b "${P}p1" ] && [ -b "${P}p2" ] &&
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "${P}p1" && mkdir "$work/mnt2" &&
  mount -o ro "${P}p1" "$work/mnt2"; then
  mounted2=1
  p1_before=$(sha256sum "${P}p1" | cut -d' ' -f1)
  Q=$(losetup -f --show "$P") && loops+=("$Q")
  R=$(losetup -f -P --show "$P") && loops+=("$R")
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -b "${R}p1" ] && break; sleep 0.5; done
  pmnt="partition ${P#/dev/}p1 mounted at $work/mnt2 \(ext4\)"
  expect_run loop-over-partitioned 2 \
    "refusing to write to $Q \([^)]*\): is over $P \(its backing device\), $pmnt" -- \
    "$bin" --name=j --filename="$Q" "${w[@]}"
  expect_run partition-of-loop-over-partitioned 2 \
    "refusing to write to ${R}p1 \([^)]*\): is a partition of $R, which is over $P \(its backing device\), $pmnt" -- \
    "$bin" --name=j --filename="${R}p1" --rw=write --bs=4k --size=64k --direct=1
  expect_run sibling-partition 0 "" -- \
    "$bin" --name=j --filename="${P}p2" --rw=write --bs=4k --size=64k --direct=1
  expect_eq partition-sha256 "$(sha256sum "${P}p1" | cut -d' ' -f1)" "$p1_before"
else
  echo "skip partitions: no partitioned loop device (${P:-none})"
fi

expect_eq image-sha256 "$(sum)" "$before"
expect_eq image-size-end "$(stat -c %s "$work/e.img")" "$size_before"
[ "$fails" -eq 0 ]
