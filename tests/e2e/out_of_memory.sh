#!/bin/bash
# Out of memory is no usage error and no bug: 8000 clones under a 400 MB
# address-space limit ended with "iobench: internal error: std::bad_alloc"
# and exit 2 (bad usage, nothing ran). It says what happened and what to
# reduce, with exit 1, a failed run's code (fio's too). I/O buffers that
# cannot be allocated are named with what sized them.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# A sanitizer runtime reserves terabytes of address space at start.
if grep -qaE '__asan_init|__tsan_init' "$bin"; then
  echo "skip: ulimit -v does not work under a sanitizer"
  exit 77
fi
(ulimit -v 400000 && exec "$bin" --name=a --ioengine=null --size=4k --numjobs=8000 \
  --group_reporting --minimal) >out 2>err
expect_eq "exit code" "$?" 1
grep -q "iobench: out of memory: .*reduce numjobs" err || fail "stderr: $(head -c 400 err)"
grep -q "internal error" err && fail "still an internal error: $(head -c 400 err)"
# The I/O buffers malloc cannot give: what sized them and what to change
# (it said only "cannot allocate 4194308 KiB of I/O buffers (mem=malloc)").
printf '[j]\nioengine=null\nsize=64m\nbs=1m\niodepth=4096\n' >v.fio
(ulimit -v 1000000 && exec "$bin" v.fio) >out 2>err
expect_eq "buffers: exit code" "$?" 2
expect_eq "buffers: stderr" "$(cat err)" \
  "iobench: job 'j': cannot allocate 4194308 KiB of I/O buffers (mem=malloc; 4096 buffers of up to 1 MiB, iodepth=4096 at v.fio:5): reduce iodepth or the block size, or raise ulimit -v, now 1000000 KiB"
(ulimit -v 1000000 && exec "$bin" --name=s --ioengine=psync --filename=s.dat --size=2g --bs=1500m) >out 2>err
expect_eq "one buffer: exit code" "$?" 2
expect_eq "one buffer: stderr" "$(cat err)" \
  "iobench: job 's': cannot allocate 1536004 KiB of I/O buffers (mem=malloc; one buffer of 1500 MiB, the largest block): reduce the block size, or raise ulimit -v, now 1000000 KiB"
[ -e s.dat ] && [ -s s.dat ] && fail "one buffer: s.dat was written"
[ "$fails" -eq 0 ]
