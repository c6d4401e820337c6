# Sourced by the e2e scripts that need ext4 on a loop device, mounted
# read-only (a clean ext4 mounted ro writes nothing to its image). Root only.
# mounted_image PREFIX SIZE BIN SRC: checks BIN (the iobench binary: sets
# $bin), root and the tools (exit 77 to skip, with the reason), sources
# check.bash from SRC (the source dir), makes $work under /var/tmp, formats
# $work/img of SIZE, attaches it ($loop), mounts it on $work/mnt, and undoes
# all that at exit.
mounted_image() {
  local prefix=$1 size=$2 t
  bin=$(readlink -f "$3")
  [ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
  [ "$(id -u)" -eq 0 ] || { echo "skip: needs root (loop device, mount)"; exit 77; }
  for t in losetup mkfs.ext4; do
    command -v $t >/dev/null || { echo "skip: needs $t"; exit 77; }
  done
  work=$(mktemp -d "/var/tmp/$prefix.XXXXXX")
  loop=""
  mounted=""
  trap 'mounted_image_cleanup' EXIT
  source "$4/tests/e2e/check.bash"
  truncate -s "$size" "$work/img"
  mkfs.ext4 -q -F "$work/img" || { echo "skip: mkfs.ext4 failed"; exit 77; }
  loop=$(losetup -f --show "$work/img" 2>/dev/null) || { loop=""; echo "skip: no loop device"; exit 77; }
  mkdir "$work/mnt"
  mount -o ro "$loop" "$work/mnt" || { echo "skip: cannot mount $loop"; exit 77; }
  mounted=1
}
mounted_image_cleanup() {
  [ -n "$mounted" ] && umount "$work/mnt" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  rm -rf "$work"
}
