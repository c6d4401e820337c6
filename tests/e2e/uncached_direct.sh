#!/usr/bin/env bash
# uncached=1 with direct=1 on tmpfs runs, as in fio: O_DIRECT I/O is issued
# without RWF_DONTCACHE (it would do nothing there), so the filesystem that
# refuses the flag for buffered I/O has nothing to refuse. iobench probed
# and set the flag anyway and refused the job ("Uncached buffered I/O needs
# ..."). The report still says uncached=1 has no effect. Buffered
# uncached=1 on tmpfs is still refused (engine_flag_where.sh).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || { echo "SKIP: /dev/shm is not tmpfs"; exit 77; }
# tmpfs takes O_DIRECT since Linux 6.6.
python3 -c 'import os; os.close(os.open("probe", os.O_CREAT | os.O_RDWR | os.O_DIRECT))' 2>/dev/null ||
  { echo "SKIP: tmpfs refuses O_DIRECT here"; exit 77; }
for e in pvsync2 io_uring; do
  "$bin" --list-engines 2>/dev/null | grep -qw "$e" || continue
  "$bin" --name=u --ioengine=$e --uncached=1 --direct=1 --rw=write --bs=4k --filename="$tmp/f" \
    --size=64k >out 2>err
  expect_eq "$e uncached=1 direct=1 on tmpfs: exit" "$?" 0
  grep -q "uncached=1 has no effect with direct=1" out || fail "$e: no note in: $(cat out err)"
  if command -v strace >/dev/null && [ "$e" = pvsync2 ]; then
    strace -f -e trace=pwritev2 -o trace "$bin" --name=u --ioengine=$e --uncached=1 --direct=1 \
      --rw=write --bs=4k --filename="$tmp/f" --size=16k >/dev/null 2>&1
    n=$(grep -c 'pwritev2(.*, 0) = 4096' trace)
    expect_eq "pvsync2 O_DIRECT writes without RWF_DONTCACHE" "$n" 4
  fi
done
[ "$fails" -eq 0 ]
