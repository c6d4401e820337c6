#!/usr/bin/env bash
# bs=, bsrange= and bssplit= resolve as in fio 3.33, whatever their order:
# bs= sets the size, bsrange= the range, bssplit= the split and the range;
# a range left unset takes bs=, a range of one size is that size, else the
# split (if any) or the range. I/O counts are fio 3.33's on the null engine
# (rw=read, size=1m) where the sizes are fixed. Where a range, a split or
# rw=rw draws at random, iobench's draws are not fio's, so the job must
# count what the one option that fio runs counts in iobench (fio's count in
# the comment). iobench applied them in written order (a bs= after bsrange=
# won; a bsrange= after bssplit= was ignored).
source "$2/tests/e2e/setup.bash"
work=$tmp

counts() {  # prints "reads/writes" of the job in JSON on stdin
  python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
print("%d/%d" % (j["read"]["total_ios"], j["write"]["total_ios"]))'
}
run() {  # NAME GLOBAL-LINES JOB-LINES (lines joined by \n): prints the counts
  printf '[global]\nioengine=null\nsize=1m\n%b\n[j]\n%b\n' "$2" "$3" >"$1.fio"
  "$bin" --output-format=json "$1.fio" 2>"$1.err" | counts
}
case_() {  # NAME WANT GLOBAL-LINES JOB-LINES
  expect_eq "$1" "$(run "$1" "$3" "$4")" "$2"
}
same() {  # NAME GLOBAL-LINES JOB-LINES AS-JOB-LINES (what fio runs)
  expect_eq "$1" "$(run "$1" "$2" "$3")" "$(run "$1-as" "$2" "$4")"
}
case_ global-range-job-bs 256/0 "bsrange=4k-4k" "bs=16k"
case_ bs-then-range 128/0 "" "bs=16k\nbsrange=8k-8k"
case_ range-then-bs 128/0 "" "bsrange=8k-8k\nbs=16k"
same wide-range-then-bs "" "bsrange=4k-8k\nbs=16k" "bsrange=4k-8k"  # fio 177/0
case_ split-then-one-size-range 64/0 "" "bssplit=8k/50:4k/50\nbsrange=16k-16k"
case_ one-split-then-range 256/0 "" "bssplit=8k/100\nbsrange=4k-4k"
case_ global-split-job-bs 31/0 "bssplit=4k/50:64k/50" "bs=8k"
same write-split-then-bs "rw=rw" "bssplit=,16k/100\nbs=8k" "bs=8k,16k"  # 38/45
same write-range-then-bs "rw=rw" "bsrange=,16k-16k\nbs=4k,8k" "bs=4k,16k"  # 46/53
case_ bs-then-split 164/0 "" "bs=16k\nbssplit=8k/50:4k/50"
same split-then-same-range "" "bssplit=4k/50:16k/50\nbsrange=4k-16k" \
  "bssplit=4k/50:16k/50"  # 112/0
same split-range-range "" \
  "bssplit=4k/50:16k/50\nbsrange=4k-16k\nbsrange=8k-8k\nbsrange=4k-16k" "bssplit=4k/50:16k/50"  # 112/0
case_ global-bs-job-range 128/0 "bs=16k" "bsrange=8k-8k"
case_ global-split-job-range 256/0 "bssplit=8k/100" "bsrange=4k-4k"
case_ global-range-job-split 256/0 "bsrange=8k-8k" "bssplit=4k/100"
same split-then-ranges-per-dir "rw=rw" "bssplit=8k/100\nbsrange=4k-4k,16k-16k" "bs=4k,16k"  # 46/53
same ranges-per-dir-then-split "rw=rw" "bsrange=4k-4k,16k-16k\nbssplit=8k/100" "bs=8k"  # 62/66
same split-range-bs "rw=rw" "bssplit=8k/100,4k/100\nbsrange=,16k-16k\nbs=32k" "bs=8k,16k"  # 38/45
same range-then-bs-per-dir "rw=rw" "bsrange=4k-4k\nbs=8k,16k" "bs=4k"  # 132/124
# What bs= lost is a note in the report, not stderr.
expect_eq "no stderr" "$(cat ./*.err)" ""

# On the command line too.
expect_eq cli-range-then-bs "$("$bin" --output-format=json --name=x --ioengine=null --size=1m \
  --bsrange=4k-4k --bs=16k | counts)" 256/0
expect_eq cli-bs-then-range "$("$bin" --output-format=json --name=x --ioengine=null --size=1m \
  --bs=16k --bsrange=4k-4k | counts)" 256/0
# Command-line globals still override a job file's block sizes, by design.
expect_eq cli-over-file "$("$bin" --output-format=json --bs=16k global-range-job-bs.fio | counts)" \
  64/0

# A split with a later range of other sizes: fio rounds the split's sizes
# down to the range's low size (4k to 0: bsrange=8k-32k issues nothing).
printf '[j]\nioengine=null\nsize=1m\nbssplit=4k/50:16k/50\nbsrange=8k-32k\n' >mix.fio
expect_run split-other-range 2 "bsrange=8k-32k \(mix.fio:5\) overrides the sizes of bssplit" -- \
  "$bin" --parse-only mix.fio
[ "$fails" -eq 0 ]
