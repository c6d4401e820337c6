#!/usr/bin/env bash
# JSON iobench.ios_per_call.reap_syscalls counts the reaps that entered the
# kernel (docs/output.md): it must equal strace's count of the reap system
# calls. libaio with userspace_reap=0 and iodepth_batch_complete_min=0
# passed io_getevents a zero timeout, which libaio's wrapper (0.3.113)
# answers without a system call when the ring is empty: a 256-read job
# reported reap_syscalls=495520 against 256 io_getevents in strace. It now
# asks as fio 3.33 does (min_nr 0, no timeout: a real call that returns at
# once). io_uring's reaps read the CQ with io_uring_peek_batch_cqe, which
# enters the kernel itself (liburing 2.3) on an empty CQ with
# IORING_SQ_TASKRUN set: those enters went uncounted (17 reap_syscalls
# against 261 io_uring_enter(GETEVENTS) with nothing to submit). The enters
# that submit count as submit calls, GETEVENTS or not (liburing adds it
# when the kernel flags completion work). Root and a loop device with direct=1, so the reads take time.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
command -v losetup >/dev/null || { echo "skip: losetup not installed"; exit 77; }
scratch_loop 64m 512

# NAME SYSCALL_REGEX OPTIONS...: runs the job under strace and compares
# reap_syscalls with the lines of the trace that match the regex.
check() {
  local name=$1 regex=$2
  shift 2
  # LeakSanitizer cannot run under ptrace (the ASan build's CI stage).
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -o trace -e trace=io_getevents,io_uring_enter "$bin" --name=j \
    --filename="$loop" --rw=randread --bs=4k --size=4m --iodepth=8 --direct=1 \
    --output-format=json "$@" >out 2>err
  expect_eq "$name: exit status" "$?" 0
  local got traced
  got=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["jobs"][0]["iobench"]["ios_per_call"]["reap_syscalls"])' out)
  traced=$(grep -cE "$regex" trace)
  expect_eq "$name: reap_syscalls against strace" "$got" "$traced"
}

getevents='io_getevents\('
for reap in 0 1; do
  check "libaio userspace_reap=$reap polling" "$getevents" --ioengine=libaio \
    --userspace_reap=$reap --iodepth_batch_complete_min=0
  check "libaio userspace_reap=$reap" "$getevents" --ioengine=libaio --userspace_reap=$reap
done
# io_uring_enter(fd, to_submit=0, min_complete, flags with GETEVENTS, ...)
reap_enter='io_uring_enter\([0-9]+, 0, [0-9]+, [A-Z_|]*GETEVENTS'
check "io_uring polling" "$reap_enter" --ioengine=io_uring --iodepth_batch_complete_min=0
check "io_uring" "$reap_enter" --ioengine=io_uring
check "io_uring batches" "$reap_enter" --ioengine=io_uring --iodepth=32 \
  --iodepth_batch_complete_min=2 --iodepth_batch_complete_max=8
[ "$fails" -eq 0 ]
