#!/usr/bin/env bash
# How the context block describes targets on btrfs (docs/context.md), on
# real btrfs filesystems made on loop devices over files in a temp dir:
#  - readahead: a file on btrfs is read ahead by btrfs's own bdi
#    (/sys/fs/btrfs/<fsid>/bdi/read_ahead_kb), not by its device's queue:
#    with the loop device set to 12 KiB and the bdi to 3000 KiB the header
#    said read_ahead_kb=12 (the device's); it must say 3000.
#  - a loop device over a file on btrfs goes down to the disk under the
#    btrfs: "loopB on vda" and disk stats for loopB, the btrfs device and
#    vda (it said "loopB on btrfs", JSON backing_fs "btrfs", as if the data
#    lived in memory, with disk stats for loopB only).
#  - btrfs over two devices (-d raid0 -m raid1 on loopC and loopD, mounted
#    from loopC) names both: "loopC,loopD on vda", disk stats for both, and
#    a 1 MiB O_DIRECT write shows writes on both (it said "loopC on vda",
#    stats for loopC only, as the mount source names one device).
#  - hipri=1 on a file on btrfs is refused (loop devices have no poll
#    queues) naming the devices: "f (btrfs on loopA) has none" (it said
#    "f is not on a block device").
#  - nowait=1 with direct=1 (pvsync2): a write job on btrfs fails at its
#    first write with EAGAIN (copy-on-write must allocate), and the report's
#    note says that writes that must allocate get EAGAIN (it said EAGAIN
#    came "only when the block layer would have to wait for a request").
#    On ext4 (the temp dir, when it is), buffered nowait writes fail at the
#    first write with EOPNOTSUPP: the read probe cannot refuse them before
#    the run (docs/engines.md says so).
# Root, losetup and mkfs.btrfs (btrfs-progs) are needed; skipped otherwise.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop devices, mount)"; exit 77; }
for t in losetup mkfs.btrfs python3 blockdev; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
. "$src/tests/e2e/check.bash"
work=$(mktemp -d /var/tmp/iobench-btrfs.XXXXXX)
undo=()  # commands, run last first: mounts and loop devices nest
cleanup() {
  local i
  for ((i = ${#undo[@]} - 1; i >= 0; i--)); do eval "${undo[i]}" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1

# newloop FILE SIZE: a loop device over FILE (created at SIZE); sets $loop.
newloop() {
  truncate -s "$2" "$1" || exit 1
  loop=$(losetup -f --show "$1" 2>/dev/null) || { echo "SKIP: no free loop device"; exit 77; }
  undo+=("losetup -d '$loop'")
}
# mountfs DEV DIR: mounts DEV on DIR (made).
mountfs() {
  mkdir -p "$2"
  mount "$1" "$2" || { echo "SKIP: cannot mount $1"; exit 77; }
  undo+=("umount '$2' || umount -l '$2'")
}
mkbtrfs() {
  mkfs.btrfs -q -f "$@" >mkfs.out 2>&1 || { echo "SKIP: mkfs.btrfs $*: $(tail -1 mkfs.out)"; exit 77; }
}
# target FIELD ARGS...: the context's first target's FIELD for an iobench
# run ("disks": the disk stats' names, comma-joined, "written": those with
# writes, "fiodisks": those of JSON disk_util, the disks fio 3.33 lists;
# "-": no such field).
target() {
  local field=$1
  shift
  "$bin" --output-format=json "$@" 2>run.err | python3 -c '
import json, sys
t = sys.stdin.read()
d = json.JSONDecoder().raw_decode(t[t.find("{"):])[0]
disks = d.get("disk_util", []) + d["iobench"].get("other_disk_util", [])
if sys.argv[1] == "disks":
    print(",".join(u["name"] for u in disks))
elif sys.argv[1] == "fiodisks":
    print(",".join(u["name"] for u in d.get("disk_util", [])) or "-")
elif sys.argv[1] == "written":
    print(",".join(u["name"] for u in disks if u["write_ios"] > 0))
else:
    v = d["iobench"]["context"]["targets"][0].get(sys.argv[1])
    print(v if v is not None else "-")' "$field"
}
# fsid DEV: the fsid of the mounted btrfs on DEV, as /sys/fs/btrfs names it.
fsid() {
  local d
  for d in /sys/fs/btrfs/*/devices/"${1##*/}"; do [ -e "$d" ] && basename "${d%/devices/*}"; done
}

newloop "$work/one.img" 256m
one=$loop
mkbtrfs "$one"
mountfs "$one" "$work/one"
one_fsid=$(fsid "$one")
if [ -z "$one_fsid" ] || [ ! -d "/sys/fs/btrfs/$one_fsid/bdi" ]; then
  echo "SKIP: no /sys/fs/btrfs/<fsid>/bdi for $one"
  exit 77
fi
head -c 1048576 /dev/zero >"$work/one/f"

# 1. Readahead: btrfs's bdi, not the device's queue.
bdi_ra=/sys/fs/btrfs/$one_fsid/bdi/read_ahead_kb
old_ra=$(cat "$bdi_ra")
undo+=("echo $old_ra >'$bdi_ra'")
echo 3000 >"$bdi_ra"
blockdev --setra 24 "$one"  # 12 KiB
expect_eq "btrfs file: read_ahead_kb is the bdi's" \
  "$(target read_ahead_kb --name=c --filename="$work/one/f" --size=1m --rw=read)" 3000
# The raw device is read ahead by its own queue.
expect_eq "the btrfs device itself: read_ahead_kb is its queue's" \
  "$(target read_ahead_kb --name=c --filename="$one" --size=1m --rw=read)" 12

# 2. A loop device over a file on btrfs: the disk under the btrfs.
# The disk under the temp dir, as the header names it ("vda").
head -c 4096 /dev/zero >"$work/probe"
under=$(target device --name=p --filename="$work/probe" --size=4k --rw=read)
under=${under##* on }
newloop "$work/one/img" 64m
onbtrfs=$loop
args=(--name=c --filename="$onbtrfs" --size=1m --rw=read)
expect_eq "loop over a btrfs file: device" "$(target device "${args[@]}")" "${onbtrfs#/dev/} on $under"
expect_eq "loop over a btrfs file: no backing_fs" "$(target backing_fs "${args[@]}")" -
expect_eq "loop over a btrfs file: disk stats" "$(target disks "${args[@]}")" \
  "${onbtrfs#/dev/},${one#/dev/},$under"
# fio 3.33 lists the loop device alone (it has no slaves).
expect_eq "loop over a btrfs file: JSON disk_util" "$(target fiodisks "${args[@]}")" \
  "${onbtrfs#/dev/}"
# A loop device queues the requests itself (blk-mq): its own scheduler.
expect_eq "loop over a btrfs file: scheduler is the loop device's" \
  "$(target scheduler "${args[@]}")" \
  "$(sed 's/.*\[\(.*\)\].*/\1/' "/sys/block/${onbtrfs#/dev/}/queue/scheduler")"

# 3. btrfs over two devices: both named, both in the disk stats.
newloop "$work/c.img" 256m
c=$loop
newloop "$work/d.img" 256m
d=$loop
mkbtrfs -d raid0 -m raid1 "$c" "$d"
mountfs "$c" "$work/two"
# In the order the header lists them: loop2 before loop10.
pair=$(printf '%s\n' "${c#/dev/loop}" "${d#/dev/loop}" | sort -n | sed 's/^/loop/' | paste -sd,)
args=(--name=c --filename="$work/two/f" --size=1m --bs=64k --rw=write --direct=1)
expect_eq "btrfs over two devices: device" "$(target device "${args[@]}")" "$pair on $under"
expect_eq "btrfs over two devices: disk stats" "$(target disks "${args[@]}")" "$pair,$under"
# btrfs's st_dev is anonymous (0:N): fio 3.33 lists no disk there.
expect_eq "btrfs over two devices: JSON disk_util" "$(target fiodisks "${args[@]}")" -
# (vda may be written by anything else running: only the two count.)
written=,$(target written "${args[@]}"),
both=""
for l in ${pair//,/ }; do [[ $written == *",$l,"* ]] && both+=${both:+,}$l; done
expect_eq "btrfs over two devices: both written" "$both" "$pair"
# Both loop devices read their files through the page cache (losetup's
# default, loop/dio=0): the direct=1 warning names both (it named the first).
"$bin" "${args[@]}" >two.out 2>/dev/null
grep -qE "^warning: job 'c': direct=1 on $work/two/f: loop[0-9]+'s and loop[0-9]+'s buffered I/O on their backing files \(loop/dio=0; losetup --direct-io=on for each\)" two.out ||
  fail "btrfs over two devices: the loop warning: $(grep '^warning' two.out)"
for l in ${pair//,/ }; do
  grep "^warning: job 'c'" two.out | grep -q "$l's" || fail "btrfs over two devices: $l not in the loop warning"
done
# The same over loop files on tmpfs: both named there too (it read "loopE
# on tmpfs", though the disk stats showed both).
if shm=$(mktemp -d /dev/shm/iobench-btrfs.XXXXXX); then
  undo+=("rm -rf '$shm'")
  newloop "$shm/e.img" 256m
  e=$loop
  newloop "$shm/f.img" 256m
  f=$loop
  mkbtrfs -d raid1 -m raid1 "$e" "$f"
  mountfs "$e" "$work/shm2"
  spair=$(printf '%s\n' "${e#/dev/loop}" "${f#/dev/loop}" | sort -n | sed 's/^/loop/' | paste -sd,)
  expect_eq "btrfs over two loop devices on tmpfs: device" \
    "$(target device --name=s --filename="$work/shm2/f" --size=64k --rw=read)" "$spair on tmpfs"
fi

# 4. hipri=1: refused, naming the btrfs devices that lack poll queues.
# hipri REST...: iobench's exit status and last stderr line.
hipri() {
  "$bin" --name=h --size=1m --rw=read --hipri=1 --direct=1 "$@" >/dev/null 2>hipri.err
  echo "$? $(tail -1 hipri.err)"
}
need="hipri (<cmdline>) needs a block device with poll queues (nvme poll_queues=N)"
expect_eq "hipri on btrfs: pvsync2" "$(hipri --ioengine=pvsync2 --filename="$work/one/f")" \
  "2 iobench: job 'h': pvsync2: $need; $work/one/f (btrfs on ${one#/dev/}) has none"
# The refusal lists them by name (loop10 before loop9).
cpair=$(printf '%s\n' "${c#/dev/}" "${d#/dev/}" | LC_ALL=C sort | paste -sd,)
expect_eq "hipri on a new file on two-device btrfs" \
  "$(hipri --ioengine=pvsync2 --filename="$work/two/new")" \
  "2 iobench: job 'h': pvsync2: $need; $work/two/new (btrfs on ${cpair/,/, }): ${cpair%%,*} has none"
if "$bin" --list-engines | grep -qE "^io_uring +available"; then
  expect_eq "hipri on btrfs: io_uring" "$(hipri --ioengine=io_uring --filename="$work/one/f")" \
    "2 iobench: job 'h': io_uring: $need; $work/one/f (btrfs on ${one#/dev/}) has none"
fi
[ -e "$work/two/new" ] && fail "hipri refusal created $work/two/new"

# 5. nowait=1: what the kernel answers to writes (docs/engines.md).
"$bin" --name=n --filename="$work/one/nw" --size=64k --rw=write --ioengine=pvsync2 --nowait=1 \
  --direct=1 >nowait.out 2>nowait.err
expect_eq "nowait direct write on btrfs: first write" "$(head -1 nowait.err)" \
  "iobench: job 'n': err=11 (write $work/one/nw offset=0 length=4096: Resource temporarily unavailable; nowait=1 at <cmdline>: the kernel would have had to wait for this I/O)"
grep -q "note: pvsync2 with direct=1: .*writes that must allocate blocks" nowait.out ||
  fail "nowait direct write: no note about allocation: $(grep note: nowait.out)"
if [ "$(target fs_type --name=p --filename="$work/probe" --size=4k --rw=read)" = ext4 ]; then
  "$bin" --name=n --filename="$work/nw" --size=64k --rw=write --ioengine=pvsync2 --nowait=1 \
    >/dev/null 2>nowait.err
  expect_eq "nowait buffered write on ext4: not refused, first write fails" \
    "$? $(head -1 nowait.err)" \
    "1 iobench: job 'n': err=95 (write $work/nw offset=0 length=4096: Operation not supported; nowait=1 at <cmdline>: this file system has no non-blocking write path)"
fi

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
