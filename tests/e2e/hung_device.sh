#!/bin/bash
# ctest-labels: threads
# A hung device is not a hung tool (docs/safety.md, the watchdog), end to end.
# Root only. Two ways to make a device stop completing I/O:
#   dm:     a dm-linear device on a loop device on a scratch file in /tmp,
#           read with direct=1, then `dmsetup suspend` (its I/O waits until
#           resume);
#   freeze: an ext4 loop mount written to, then `fsfreeze -f` (writes wait
#           until it is thawed) — for kernels without device-mapper.
# For psync and io_uring: iobench must name the stuck job on stderr and its
# main thread must finish (exit, or a zombie leader while the stuck thread
# sits in uninterruptible I/O) well within the bound below; after the device
# is resumed the exit code is 1. Bad --stuck-timeout values exit 2.
# The trap always resumes/thaws and removes the dm device, mount and loop.
# $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")

# Bad values of the knob (no root needed).
for v in abc -1s 10us 5000000000s; do
  out=$("$bin" --stuck-timeout="$v" --name=x --ioengine=null --size=1m 2>&1)
  rc=$?
  [ "$rc" -eq 2 ] || { echo "FAIL: --stuck-timeout=$v: exit $rc, want 2"; exit 1; }
  case "$out" in
    "iobench: --stuck-timeout=$v: "*) ;;
    *) echo "FAIL: --stuck-timeout=$v: message '$out'"; exit 1 ;;
  esac
done
"$bin" --help | grep -q -- "--stuck-timeout=VALUE" || { echo "FAIL: not in --help"; exit 1; }
"$bin" --stuck-timeout=0 --name=x --ioengine=null --size=1m >/dev/null ||
  { echo "FAIL: --stuck-timeout=0 refused"; exit 1; }
echo "ok: --stuck-timeout values are checked"

if [ "$(id -u)" != 0 ]; then
  echo "skip: needs root (loop devices, dmsetup, fsfreeze)"
  exit 77
fi
command -v losetup >/dev/null || { echo "skip: no losetup"; exit 77; }

work=$(mktemp -d /tmp/iobench_hung.XXXXXX) || exit 1
img="$work/img"
loop=""
dm=""
mnt=""
frozen=0
pid=""
cleanup() {
  [ -n "$dm" ] && dmsetup resume "$dm" 2>/dev/null
  [ "$frozen" = 1 ] && fsfreeze -u "$mnt" 2>/dev/null
  [ -n "$pid" ] && wait "$pid" 2>/dev/null
  [ -n "$dm" ] && dmsetup remove "$dm" 2>/dev/null
  if [ -n "$mnt" ]; then
    # io_uring drops its file references in a kernel worker after the
    # process is gone: the mount can be busy for a moment.
    for _ in $(seq 100); do umount "$mnt" 2>/dev/null && break; sleep 0.1; done
    mountpoint -q "$mnt" && umount -l "$mnt"
  fi
  if [ -n "$loop" ]; then
    for _ in $(seq 50); do losetup -d "$loop" 2>/dev/null && break; sleep 0.1; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
truncate -s 64M "$img" || exit 1
loop=$(losetup -f --show "$img") || { echo "skip: cannot set up a loop device"; exit 77; }

fail() {
  echo "FAIL: $*"
  for x in "$work/err" "$work/out"; do [ -f "$x" ] && { echo "--- $x"; head -c 2000 "$x"; }; done
  exit 1
}

# leader_done PID: the process is gone, or its main thread exited (zombie
# leader) while a stuck thread is still in the kernel.
leader_done() {
  [ -d "/proc/$1" ] || return 0
  local st
  st=$(awk '/^State:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 0
  [ "$st" = Z ] || [ -z "$st" ]
}

# expect_stuck ENGINE HANG_CMD RESUME_CMD IOBENCH_ARGS...
expect_stuck() {
  local eng=$1 hang=$2 resume=$3
  shift 3
  if ! "$bin" --list-engines | grep -q "^$eng *available"; then
    echo "skip $eng: not available here"
    return 1
  fi
  # With a per-I/O log: the log writer must outlive the left-behind thread.
  # runtime=2: the hang lands 0.5 s after the start and must take hold
  # before the job ends; under a sanitizer on a loaded machine fsfreeze once
  # took longer than the rest of a 1 s runtime, and the job ended normally.
  "$bin" --name=hungjob --ioengine="$eng" --stuck-timeout=2 --time_based --runtime=2 \
    --write_lat_log="$work/lat" "$@" --output-format=json >"$work/out" 2>"$work/err" &
  pid=$!
  sleep 0.5
  eval "$hang" || fail "$eng: $hang failed"
  # Bound: runtime 2 s + grace 2 s + the watch loop; 30 s means it hung.
  local i
  for ((i = 0; i < 300; i++)); do
    leader_done "$pid" && break
    sleep 0.1
  done
  local reported=$i
  eval "$resume"
  wait "$pid"
  local rc=$?
  pid=""
  [ "$reported" -lt 300 ] || fail "$eng: no report and exit within 30 s (it hung)"
  grep -q "does not complete I/O" "$work/err" ||
    fail "$eng: exit $rc without a stuck report: the job ended before the hang took hold"
  [ "$rc" -eq 1 ] || fail "$eng: exit $rc, want 1"
  grep -q "job 'hungjob' (ioengine=$eng" "$work/err" || fail "$eng: the stuck job is not named"
  grep -q "none completed in the last 2 s" "$work/err" || fail "$eng: the grace is not 2 s"
  echo "ok: $eng: the stuck job was named and iobench exited 1"
}

ran=0
if command -v dmsetup >/dev/null && dmsetup targets 2>/dev/null | grep -q '^linear'; then
  name="iobench_hung_$$"
  sectors=$(blockdev --getsz "$loop")
  # Without a running udev, libdevmapper would wait for it forever: make the
  # nodes itself.
  pgrep -x systemd-udevd >/dev/null || pgrep -x udevd >/dev/null || export DM_DISABLE_UDEV=1
  if timeout 20 dmsetup create "$name" --table "0 $sectors linear $loop 0" 2>"$work/dmerr"; then
    dm=$name
    dev=/dev/mapper/$name
    for i in $(seq 50); do [ -b "$dev" ] && break; sleep 0.1; done
    [ -b "$dev" ] || fail "$dev did not appear"
    for eng in psync io_uring; do
      expect_stuck "$eng" "dmsetup suspend $name" "dmsetup resume $name" \
        --filename="$dev" --rw=randread --bs=4k --direct=1 --iodepth=4 && ran=$((ran + 1))
    done
    dmsetup remove "$name" && dm=""
  else
    echo "skip dm: dmsetup create failed: $(cat "$work/dmerr")"
  fi
else
  echo "skip dm: no device-mapper with the linear target in this kernel"
fi

if command -v fsfreeze >/dev/null && command -v mkfs.ext4 >/dev/null; then
  mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 || fail "mkfs.ext4"
  mnt="$work/mnt"
  mkdir -p "$mnt"
  if mount "$loop" "$mnt" 2>/dev/null; then
    for eng in psync io_uring; do
      # Written in full before the job starts, so that iobench has nothing
      # to lay out: a freeze that came during the layout (under load, the
      # 0.5 s below can end before it does) stalled the job before its first
      # I/O, where the watchdog rightly does not look, and it waited 30 s.
      rm -f "$mnt/f"
      dd if=/dev/zero of="$mnt/f" bs=1M count=8 conv=fsync status=none || fail "dd"
      expect_stuck "$eng" "fsfreeze -f $mnt && frozen=1" "fsfreeze -u $mnt; frozen=0" \
        --filename="$mnt/f" --size=8m --rw=write --bs=4k --direct=1 --iodepth=4 &&
        ran=$((ran + 1))
    done
  else
    echo "skip freeze: cannot mount ext4 here"
    mnt=""
  fi
else
  echo "skip freeze: no fsfreeze or mkfs.ext4"
fi

[ "$ran" -gt 0 ] || { echo "skip: neither dm-linear nor fsfreeze can hang a device here"; exit 77; }
echo "all ok"
