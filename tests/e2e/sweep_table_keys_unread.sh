#!/bin/bash
# End to end: --table-rows and --table-cols lay out the tables of a run
# (--output-format=table, the normal report's --repeat median tables); with
# json or terse alone, or the normal report without --repeat, nothing reads
# them and they are refused before the run (exit 2), as --table-style and
# --table-metric are (docs/sweep.md). They were accepted and changed
# nothing. A repeated one keeps the last, as every single-valued tool option.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
sweep=(--sweep iodepth=1,2 --sweep bs=4k,8k)
for fmt in json terse normal json,terse; do
  for opt in --table-cols=iodepth --table-rows=bs; do
    "$bin" "${job[@]}" "${sweep[@]}" "$opt" --output-format=$fmt >out 2>err
    rc=$?
    if [ $rc -ne 2 ] || [ -s out ] ||
      ! grep -qF -- "iobench: $opt: nothing reads it with --output-format=$fmt;" err; then
      fail "$opt $fmt: exit $rc, stderr: $(cat err)"
    else
      echo "ok   $opt refused with $fmt"
    fi
  done
done
# --compare's delta tables do not read it either: a run compared now.
"$bin" "${job[@]}" "${sweep[@]}" --output-format=json --output=base.json || fail "base run"
"$bin" "${job[@]}" "${sweep[@]}" --compare base.json --table-cols=iodepth >out 2>err
expect_eq "--compare run, normal: exit" "$?" 2
grep -qF -- "--table-cols=iodepth: nothing reads it with --output-format=normal" err ||
  fail "--compare run: $(cat err)"
# Read: the table format, and normal with --repeat.
"$bin" "${job[@]}" "${sweep[@]}" --table-cols=iodepth --output-format=json,table >out 2>err
expect_eq "table: exit" "$?" 0
grep -q '^bs *iodepth=1 *iodepth=2' out || fail "table cols: $(cat out err)"
"$bin" "${job[@]}" "${sweep[@]}" --table-rows=bs --repeat=2 >out 2>err
expect_eq "normal --repeat: exit" "$?" 0
# Repeated: the last one wins, as --output=a --output=b writes b.
"$bin" "${job[@]}" "${sweep[@]}" --table-rows=iodepth --table-rows=bs --output-format=table >out 2>err
expect_eq "repeated: exit" "$?" 0
grep -q '^bs ' out || fail "repeated --table-rows did not keep the last: $(cat out err)"
[ "$fails" -eq 0 ]
