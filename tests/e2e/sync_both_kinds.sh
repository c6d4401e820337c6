#!/bin/bash
# fsync=N and fdatasync=M together: as fio 3.33's get_rw_ddir, after the
# job's Wth write an fsync is due when W is a multiple of N, else an
# fdatasync when it is one of M. iobench used to issue only the fsyncs
# (fsync=2 fdatasync=1 on 16 writes: 7 fsync, no fdatasync; fio: 7 and 8).
# Read from each tool's write_iolog ("sync", "datasync"), on psync, whose
# sequence is fio's exactly; the same jobs run with fio when installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# kinds TOOL ARGS...: "writes fsyncs fdatasyncs" from the job's write_iolog.
kinds() {
  local tool=$1
  shift
  rm -f log f
  "$tool" --name=j --filename=f --size=64k --bs=4k --write_iolog=log \
    --output-format=terse "$@" >/dev/null 2>err || { echo "exit $?: $(head -c 300 err)"; return; }
  awk '$3 == "write" { w++ } $3 == "sync" { s++ } $3 == "datasync" { d++ }
       END { print w + 0, s + 0, d + 0 }' log
}

# order F D ARGS...: whether iobench's log of the job has, after each write, the sync the
# rule asks for and no other (what follows the last write is not compared:
# with nothing after it, no sync is issued).
order() {
  local f=$1 d=$2 got want="" i n
  shift 2
  kinds "$bin" "$@" >/dev/null
  got=$(awk '$3 == "write" { printf "w" } $3 == "sync" { printf "S" }
             $3 == "datasync" { printf "D" } END { print "" }' log)
  got=${got%w*}w
  n=$(tr -cd w <<<"$got" | wc -c)
  for ((i = 1; i <= n; i++)); do
    want+=w
    if [ "$f" -ne 0 ] && [ $((i % f)) -eq 0 ]; then
      want+=S
    elif [ "$d" -ne 0 ] && [ $((i % d)) -eq 0 ]; then
      want+=D
    fi
  done
  want=${want%w*}w
  expect_eq "order $*" "$got" "$want"
}

check() {  # WANT ARGS...
  local want=$1 t got
  shift
  for t in $(tools); do
    got=$(kinds "$(cmd "$t")" "$@")
    expect_eq "$t $* (writes fsyncs fdatasyncs)" "$got" "$want"
  done
}

check "16 7 8" --rw=write --fsync=2 --fdatasync=1
order 2 1 --rw=write --fsync=2 --fdatasync=1
check "16 5 5" --rw=write --fsync=3 --fdatasync=2
order 3 2 --rw=write --fsync=3 --fdatasync=2
check "16 1 6" --rw=write --fsync=8 --fdatasync=2
check "9 1 4" --rw=write --fsync=5 --fdatasync=2 --number_ios=9
# The counts run on across loops (fio's io_issues), and the sync a loop's
# last write owes is issued again when the next loop starts (docs/running.md).
check "32 10 11" --rw=write --fsync=3 --fdatasync=2 --loops=2
check "48 13 12" --rw=write --fsync=4 --fdatasync=3 --loops=3
# verify: the write pass syncs as without it; the reads count nothing.
check "16 7 8" --rw=write --fsync=2 --fdatasync=1 --verify=crc32c

# rw=randrw: one sync per due write, as the rule above (iobench does not
# repeat a sync before each read as fio 3.33 does: docs/patterns.md).
order 2 3 --rw=randrw --fsync=2 --fdatasync=3
order 3 2 --rw=randrw --rwmixread=30 --fsync=3 --fdatasync=2

[ "$fails" -eq 0 ]
