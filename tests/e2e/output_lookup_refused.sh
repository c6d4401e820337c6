#!/bin/bash
# An --output (or --plot) path that the open after the run would fail on
# for a reason other than a missing directory: a name longer than NAME_MAX,
# a symbolic link that loops, a dangling link into a missing directory.
# Each ran the whole job and then lost the report (exit 1); fio refuses
# them before any I/O. Refused before the run (exit 2), nothing made.
# Null-engine jobs with runtime=30s: a run that is made shows as a timeout.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
work=$tmp
job=(--name=t --ioengine=null --size=1m --time_based --runtime=30s)
long=$(head -c 300 /dev/zero | tr '\0' a)
mkdir d
ln -s selfloop selfloop
ln -s loop.svg loop.svg
ln -s /nonexistent/dir/x dangling
ln -s d/made linked
expect_run "--output=300-char name" 2 "^iobench: --output=d/a+: File name too long" -- \
  "$bin" "${job[@]}" --output="d/$long"
expect_run "--output=self-loop link" 2 "^iobench: --output=selfloop: Too many levels of symbolic links" -- \
  "$bin" "${job[@]}" --output=selfloop
expect_run "--output=dangling link into a missing directory" 2 \
  "^iobench: --output=dangling: directory /nonexistent/dir .*No such file or directory" -- \
  "$bin" "${job[@]}" --output=dangling
expect_run "--plot=self-loop link" 2 "^iobench: --plot=loop.svg: Too many levels" -- \
  "$bin" "${job[@]}" --sweep iodepth=1,2 --plot=loop.svg
expect_eq "nothing made in d" "$(ls d)" ""
# A dangling link into a directory that exists is followed, as fio does:
# the report is written to the file it names.
expect_run "--output=dangling link into d" 0 "" -- \
  "$bin" --name=t --ioengine=null --size=64k --output=linked --output-format=terse
grep -q '^3;iobench-' d/made || fail "d/made does not hold the terse report"
[ "$fails" -eq 0 ]
