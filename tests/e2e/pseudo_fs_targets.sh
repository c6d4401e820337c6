#!/bin/bash
# Files on pseudo file systems (/proc, /sys) are the kernel's settings, not
# storage. A read job on /proc/sys/kernel/hostname (which reports 0 bytes)
# used to "lay it out" with 16 random bytes: the hostname became them. Now a
# layout, a creation, a write or a trim there, and a report written there,
# are refused before any I/O, naming the file, the file system and the
# option. Run in a private UTS namespace (unshare -u), so the hostname
# written on failure is only this test's; skipped without unshare.
# $1: iobench binary, $2: source dir.
if [ -z "${IOBENCH_PRIVATE_UTS:-}" ]; then
  if ! unshare -u true 2>/dev/null; then
    echo "skip: unshare -u (a private UTS namespace) is not available: needs root or user namespaces"
    exit 77
  fi
  IOBENCH_PRIVATE_UTS=1 exec unshare -u bash "$0" "$@"
fi
source "$2/tests/e2e/setup.bash"
work=$tmp
host=/proc/sys/kernel/hostname
hostname iobench-qa || { echo "skip: cannot set the hostname in the private namespace"; exit 77; }
unchanged() { expect_eq "$1: hostname unchanged" "$(cat $host)" iobench-qa; }

expect_run "read job lays out nothing" 2 \
  "^iobench: job 'j': refusing to lay out $host \(filename=$host at <cmdline>; it reports 0 bytes.*ends at 16.*\): it is on proc, a pseudo file system" \
  -- "$bin" --name=j --filename=$host --rw=read --bs=16 --size=16
unchanged "read"
[ -s "$work/out" ] && fail "read: a report was printed"

printf '[global]\nbs=16\n[p]\nfilename=%s\nrw=randread\nsize=16\n' "$host" >"$work/p.fio"
expect_run "job file: names the line" 2 "refusing to lay out $host \(filename=$host at p.fio:4;" \
  -- "$bin" p.fio
unchanged "job file"

expect_run "write refused" 2 \
  "refusing to write to $host \(filename=$host at <cmdline>; rw=write at <cmdline>\): it is on proc" \
  -- "$bin" --name=j --filename=$host --rw=write --bs=16 --size=16 --allow_mounted_write=1
unchanged "write"
expect_run "trim refused" 2 "refusing to trim $host .*rw=randtrim" \
  -- "$bin" --name=j --filename=$host --rw=randtrim --bs=16 --size=16
unchanged "trim"
expect_run "create refused" 2 \
  "refusing to create /proc/sys/kernel/j.0.0 \(directory=/proc/sys/kernel at <cmdline>\): it is on proc" \
  -- "$bin" --name=j --directory=/proc/sys/kernel --rw=read --bs=16 --size=16
expect_run "report there refused" 2 \
  "refusing to write the report \(--output\) to $host: it is on proc" \
  -- "$bin" --name=j --filename=f --rw=read --bs=16 --size=16 --output=$host
unchanged "--output"
[ -e "$work/f" ] && fail "--output: the job's file was laid out before the refusal"

# A read of a sysfs file within the size it reports runs (it reads, writes nothing).
if [ -r /sys/kernel/uevent_seqnum ]; then
  expect_run "sysfs read runs" 0 "" -- "$bin" --name=j --filename=/sys/kernel/uevent_seqnum \
    --rw=read --bs=4k --size=4k --output-format=terse
fi
# tmpfs stores data: a file there is laid out as before.
expect_run "tmpfs file laid out" 0 "" -- "$bin" --name=j --filename=g --rw=read --bs=4k --size=16k \
  --output-format=terse
expect_eq "tmpfs file size" "$(stat -c %s "$work/g" 2>/dev/null)" 16384
[ "$fails" -eq 0 ]
