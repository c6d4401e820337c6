#!/bin/bash
# A value stuck to a one-letter option (fio's getopt: -ofile is -o file)
# swallowed a misspelled long option whole: -ofset=4k wrote the report to a
# file named "fset=4k", -iodpth=4 was --enghelp=odpth=4, -dirct=1 --debug.
# A stuck value with '=' whose whole word is near an option is refused
# (exit 2), saying how it was read, what was likely meant, and how to write
# the other. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
job=(--name=t --ioengine=null --size=64k)
expect_run "-ofset=4k" 2 \
  "^iobench: -ofset=4k: read as -o 'fset=4k' \(--output=fset=4k\); did you mean --offset=4k\? If -o with that value is meant, write -o fset=4k$" -- \
  "$bin" "${job[@]}" -ofset=4k
[ -e "$work/fset=4k" ] && fail "-ofset=4k made a file fset=4k"
expect_run "-iodpth=4" 2 "^iobench: -iodpth=4: read as -i 'odpth=4' .*did you mean --iodepth=4\?" -- \
  "$bin" "${job[@]}" -iodpth=4
expect_run "-dirct=1" 2 "^iobench: -dirct=1: read as -d 'irct=1' \(--debug=irct=1\), a fio option iobench does not support; did you mean --direct=1\?" -- \
  "$bin" "${job[@]}" -dirct=1
expect_run "-outptu=x (a tool option's typo)" 2 "did you mean --output=x\?" -- \
  "$bin" "${job[@]}" -outptu=x
# What is not such a typo stays as fio reads it.
expect_run "-ofile" 0 "" -- "$bin" "${job[@]}" -orep.txt -m
grep -q '^3;iobench-' "$work/rep.txt" || fail "-orep.txt: $(head -c 100 "$work/rep.txt")"
expect_run "-o fset=4k" 0 "" -- "$bin" "${job[@]}" -o fset=4k -m
grep -q '^3;iobench-' "$work/fset=4k" || fail "-o fset=4k did not write fset=4k"
expect_run "-offset=4k" 0 "" -- "$bin" "${job[@]}" -offset=4k -m
[ "$fails" -eq 0 ]
