#!/usr/bin/env bash
# mem=shmhuge as a user outside vm.hugetlb_shm_group and without
# CAP_IPC_LOCK: the kernel refuses the segment with EPERM. The error said
# only "shmget of 2 MiB: Operation not permitted"; it now names what would
# let it, and mem=mmaphuge, which needs neither.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no setpriv,
# no huge page can be reserved).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to become another uid)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: needs setpriv"; exit 77; }
. "$src/tests/e2e/check.bash"

[ "$(cat /proc/sys/vm/hugetlb_shm_group)" = 65534 ] && { echo "SKIP: nobody's group may use SHM_HUGETLB"; exit 77; }
old=$(cat /proc/sys/vm/nr_hugepages)
free=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
work=$(mktemp -d /var/tmp/iobench-shmhuge.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"; [ "$(cat /proc/sys/vm/nr_hugepages)" = "$old" ] || echo "$old" >/proc/sys/vm/nr_hugepages' EXIT
if [ "${free:-0}" -lt 2 ]; then
  echo $((old + 2)) >/proc/sys/vm/nr_hugepages 2>/dev/null
  free=$(awk '/^HugePages_Free:/ {print $2}' /proc/meminfo)
  [ "${free:-0}" -ge 2 ] || { echo "SKIP: could not reserve 2 huge pages"; exit 77; }
fi
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1
user=(setpriv --reuid=65534 --regid=65534 --clear-groups)

"${user[@]}" ./iobench --name=t --ioengine=null --size=1m --rw=read --mem=shmhuge >out 2>err
expect_eq "mem=shmhuge as a user: exit status" "$?" 2
grep -qF "iobench: job 't': mem=shmhuge: shmget of 2 MiB: Operation not permitted; huge-page shared memory needs CAP_IPC_LOCK or membership of the group vm.hugetlb_shm_group names (now $(cat /proc/sys/vm/hugetlb_shm_group)), or use mem=mmaphuge" err ||
  fail "mem=shmhuge as a user: want the group, the capability and mmaphuge named, got '$(cat err)'"
# The remedy it names works.
"${user[@]}" ./iobench --name=t --ioengine=null --size=1m --rw=read --mem=mmaphuge >out 2>err
expect_eq "mem=mmaphuge as a user: exit status" "$?" 0

[ "$fails" -eq 0 ] || exit 1
echo "shmhuge as a user: ok"
