#!/bin/bash
# unlink_each_loop=1 when the job's I/O (number_ios x loops, io_size x
# loops) runs out before its last loop: fio 3.33 still starts the next loop,
# which removes the files and issues nothing, so none is left behind
# (loops=2 number_ios=5 on 64k: 10 writes, no file). iobench made the
# writes and never removed the file (64 KiB left). The empty loop's
# end_fsync or fsync_on_close opens the files again: fio leaves them empty.
# A last loop that did I/O keeps its file. Each case checked against fio.
# Also: the error of a reading job whose file a loop removed names the job
# once, and such a job with several files leaves none. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

left() {  # WANT ARGS...: the files (name:size) a write job leaves in d/
  local want=$1
  shift
  rm -rf d && mkdir d
  "$bin" --output-format=terse --name=a --directory=d --size=64k --bs=4k --unlink_each_loop=1 \
    "$@" >/dev/null 2>err || { fail "$*: exit $?: $(cat err)"; return; }
  expect_eq "$* leaves" "$(cd d && stat -c %n:%s -- * 2>/dev/null | sort | tr '\n' ' ')" "$want"
}
left "" --rw=write --loops=2 --number_ios=5
left "" --rw=write --loops=2 --io_size=16k
left "" --rw=write --loops=2 --number_ios=5 --nrfiles=2
left "" --rw=write --loops=2 --number_ios=8 # 16 writes: exactly one pass
left "" --rw=write --loops=3 --number_ios=8 # loop 2 writes 8, loop 3 removes
left "" --rw=randwrite --loops=2 --number_ios=5
left "" --rw=read --loops=2 --number_ios=5
left "" --rw=write --loops=2 --number_ios=5 --nrfiles=2 --openfiles=1
left "a.0.0:0 " --rw=write --loops=2 --number_ios=5 --end_fsync=1
left "a.0.0:0 " --rw=write --loops=2 --number_ios=5 --fsync_on_close=1
left "a.0.0:65536 " --rw=write --loops=1 --number_ios=5
left "a.0.0:65536 " --rw=write --loops=2
left "a.0.0:65536 " --rw=write --loops=2 --io_size=64k
left "a.0.0:65536 " --rw=write --loops=2 --io_size=100k

rm -rf d && mkdir d
"$bin" --output-format=terse --name=a --directory=d --size=64k --bs=4k --rw=read \
  --unlink_each_loop=1 --loops=2 >/dev/null 2>err
expect_eq "read job exit" "$?" 1
grep -q "err=2 (directory=d at <cmdline>: open d/a.0.0: No such file or directory (unlink_each_loop removed it after loop 1))" \
  err || fail "read job stderr: $(cat err)"
grep -q "job 'a'.*job 'a'" err && fail "the job is named twice: $(cat err)"
# With several files every one goes before the next loop opens any, as
# fio's unlink_all_files: the reading job fails on the first and leaves none
# (iobench removed the first, failed reopening it, and left a.0.1, a.0.2).
rm -rf d && mkdir d
"$bin" --output-format=terse --name=a --directory=d --size=192k --bs=4k --rw=read --nrfiles=3 \
  --unlink_each_loop=1 --loops=2 >/dev/null 2>err
expect_eq "3-file read job exit" "$?" 1
expect_eq "3-file read job leaves" "$(ls d)" ""
[ "$fails" -eq 0 ]
