#!/usr/bin/env bash
# ioengine=mmap advises its mappings as fadvise_hint says, as fio's engine
# does: 0 none (the kernel's readahead), 1 by the workload (MADV_RANDOM for a
# random job, MADV_SEQUENTIAL otherwise), sequential and random as named.
# iobench advised by the workload whatever the option said: fadvise_hint=0
# on a random read turned readahead off (128 pages cached, fio 1003).
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
# LeakSanitizer cannot run under ptrace.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
dd if=/dev/zero of=f bs=1M count=4 status=none

# NAME WANT RW HINT: the madvise advice of the job's mapping (none, or
# MADV_RANDOM / MADV_SEQUENTIAL) as strace shows it.
check() {
  local name=$1 want=$2 rw=$3 hint=$4 got
  strace -f -qq -e trace=madvise -o trace "$bin" --name=m --filename=f --ioengine=mmap \
    --rw="$rw" --bs=4k --size=1m --fadvise_hint="$hint" --output=/dev/null 2>err
  expect_eq "$name: exit" "$?" 0
  expect_eq "$name: stderr" "$(cat err)" ""
  got=$(grep -oE 'MADV_(RANDOM|SEQUENTIAL)' trace | sort -u | tr '\n' ' ')
  expect_eq "$name: advice" "${got:-none }" "$want "
}
check "randread, 0" none randread 0
check "randread, 1" MADV_RANDOM randread 1
check "read, 1" MADV_SEQUENTIAL read 1
check "randread, sequential" MADV_SEQUENTIAL randread sequential
check "read, random" MADV_RANDOM read random
[ "$fails" -eq 0 ]
