# Sourced by e2e scripts after setup.bash (not a test itself: ctest runs
# *.sh only). Scratch file systems on loop devices over files in /var/tmp
# (a disk, not memory), mounted on $mnt ($tmp/mnt); $img, $loop and $mnt go
# at exit. Exit 77 (skip) without root, the mkfs tool or a loop device.
#
# scratch_loop SIZE SECTOR: the image, the loop device with SECTOR-byte
# sectors and the mount point, nothing on them yet.
# scratch_ext4 SIZE SECTOR MKFS_OPTIONS MOUNT_OPTIONS: an ext4 on it, mounted.
# scratch_btrfs SIZE MKFS_OPTIONS MOUNT_OPTIONS [dio]: a btrfs on a loop
# device with 512-byte sectors, mounted; "dio" turns the loop device's own
# direct I/O on first (else its page cache warning on direct=1 jobs).
scratch_loop() {
  local size=$1 sector=$2
  [ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device, mount)"; exit 77; }
  img=$(mktemp /var/tmp/iobench-scratch.XXXXXX)
  mnt="$tmp/mnt"
  loop=
  mkdir "$mnt"
  trap scratch_cleanup EXIT
  truncate -s "$size" "$img"
  loop=$(losetup -f --show -b "$sector" "$img") ||
    { echo "skip: no loop device with $sector-byte sectors"; exit 77; }
}

scratch_ext4() {
  local size=$1 sector=$2 mkfs_options=$3 mount_options=$4
  command -v mkfs.ext4 >/dev/null || { echo "skip: no mkfs.ext4"; exit 77; }
  scratch_loop "$size" "$sector"
  # shellcheck disable=SC2086 # the options are words
  mkfs.ext4 -q -F -E nodiscard $mkfs_options "$loop" || { echo "skip: mkfs.ext4 failed"; exit 77; }
  mount ${mount_options:+-o "$mount_options"} "$loop" "$mnt" ||
    { echo "skip: cannot mount ext4 (${mount_options:-defaults}) on $loop"; exit 77; }
}

scratch_btrfs() {
  local size=$1 mkfs_options=$2 mount_options=$3 dio=${4:-}
  command -v mkfs.btrfs >/dev/null || { echo "skip: no mkfs.btrfs"; exit 77; }
  grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null
  grep -qw btrfs /proc/filesystems || { echo "skip: the kernel has no btrfs"; exit 77; }
  scratch_loop "$size" 512
  [ "$dio" = dio ] && losetup --direct-io=on "$loop" 2>/dev/null
  # shellcheck disable=SC2086 # the options are words
  mkfs.btrfs -q -f $mkfs_options "$loop" >/dev/null 2>&1 || { echo "skip: mkfs.btrfs failed"; exit 77; }
  mount ${mount_options:+-o "$mount_options"} "$loop" "$mnt" ||
    { echo "skip: cannot mount btrfs (${mount_options:-defaults}) on $loop"; exit 77; }
}

scratch_cleanup() {
  mountpoint -q "$mnt" && umount "$mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  rm -f "$img"
  cd /
  rm -rf "$tmp"
}
