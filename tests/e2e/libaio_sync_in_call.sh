#!/bin/bash
# libaio's fsync (and fdatasync) is made in its queue call, as fio 3.33's
# libaio does (do_io_u_sync): once the writes before it are submitted, with
# them in flight, and its error is the job's at once. iobench sent it as an
# IOCB_CMD_FSYNC that stayed in flight while more writes were queued: on
# /dev/null (fsync fails with EINVAL) fsync=2 at iodepth=8 issued 6 writes
# and 2 syncs, fio 2 and 1 (err=22). "error writes syncs" of the JSON, and
# fio's when it runs.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"

# fio's JSON counts no fdatasync in "sync": its error and writes only there.
for t in $(tools); do
  while read -r s fields want; do
    got=$(job_counts err "$(cmd "$t")" --name=j --filename=/dev/null --size=1m --rw=write \
      --bs=4k --ioengine=libaio --iodepth=8 --"$s"=2 | cut -d' ' -f"$fields")
    expect_eq "$t libaio $s=2 on /dev/null" "$got" "$want"
  done <<'LIST'
fsync 1,4,6 22 2 1
fdatasync 1,4 22 2
LIST
done
[ "$fails" -eq 0 ]
