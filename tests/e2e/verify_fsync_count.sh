#!/usr/bin/env bash
# fsync=N / fdatasync=N in a job that verifies, as fio 3.33: the sync owed
# by a pass's last write is not issued when nothing else follows in that
# do_io (the verify phase comes next; write_iolog `w w w w s w w w w close
# open r ...`), nor by a queueing engine at a loop's end; a sync engine
# between loops still issues it, and the next loop starts with it again.
# iobench used to issue it whenever the job verified (psync size=32k
# fsync=4: 2 syncs, fio 1). The JSON sync count, exact (no timing), the
# same expectations checked on fio when it runs.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

for t in $(tools); do
  while read -r want args; do
    got=$(job_counts err "$(cmd "$t")" --name=j --bs=4k --rw=write --size=32k \
      --verify=crc32c $args | awk '{print $1 == 0 ? $6 : "error " $1}')
    expect_eq "$t $args" "$got" "$want"
    rm -f j.*
  done <<'LIST'
1 --ioengine=psync --fsync=4
1 --ioengine=psync --fsync=4 --verify_backlog=3
1 --ioengine=psync --rw=randwrite --fsync=4
2 --ioengine=psync --fsync=3
2 --ioengine=psync --fsync=4 --size=42k
3 --ioengine=libaio --iodepth=2 --nrfiles=2 --fsync=2
4 --ioengine=psync --fsync=4 --loops=2
3 --ioengine=libaio --fsync=4 --loops=2
5 --ioengine=libaio --iodepth=4 --fsync=4 --loops=3
7 --ioengine=psync --fsync=4 --loops=3 --nrfiles=2
LIST
done
[ "$fails" -eq 0 ]
