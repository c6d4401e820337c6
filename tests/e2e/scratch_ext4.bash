# Sourced by e2e scripts after setup.bash (not a test itself: ctest runs
# *.sh only). scratch_ext4 SIZE SECTOR MKFS_OPTIONS MOUNT_OPTIONS makes an
# ext4 on a loop device with SECTOR-byte sectors over a file in /var/tmp,
# mounts it on $mnt ($tmp/mnt) and sets $img and $loop; all three go at
# exit. Exit 77 (skip) without root, mkfs.ext4 or a loop device.
scratch_ext4() {
  local size=$1 sector=$2 mkfs_options=$3 mount_options=$4
  [ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device, mount)"; exit 77; }
  command -v mkfs.ext4 >/dev/null || { echo "skip: no mkfs.ext4"; exit 77; }
  img=$(mktemp /var/tmp/iobench-ext4.XXXXXX)
  mnt="$tmp/mnt"
  loop=
  mkdir "$mnt"
  trap scratch_ext4_cleanup EXIT
  truncate -s "$size" "$img"
  loop=$(losetup -f --show -b "$sector" "$img") ||
    { echo "skip: no loop device with $sector-byte sectors"; exit 77; }
  # shellcheck disable=SC2086 # the options are words
  mkfs.ext4 -q -F -E nodiscard $mkfs_options "$loop" || { echo "skip: mkfs.ext4 failed"; exit 77; }
  mount ${mount_options:+-o "$mount_options"} "$loop" "$mnt" ||
    { echo "skip: cannot mount ext4 (${mount_options:-defaults}) on $loop"; exit 77; }
}

scratch_ext4_cleanup() {
  mountpoint -q "$mnt" && umount "$mnt"
  [ -n "$loop" ] && losetup -d "$loop"
  rm -f "$img"
  cd /
  rm -rf "$tmp"
}
