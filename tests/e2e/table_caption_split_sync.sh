#!/bin/bash
# A table of some of the jobs is captioned from its own jobs: a sweep split
# by engine captioned its psync table `iodepth=8` (only the io_uring jobs ran
# at that depth; docs/sweep.md: iodepth is left out when every job of the
# table runs a sync engine), and so did --compare's psync table.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --filename="$tmp/f" --size=256k --iodepth=8 --ioengine=null)
"$bin" "${job[@]}" --sweep rw=read,write --sweep bs=4k,8k --sweep ioengine=psync,null \
  --output-format=table >t.txt 2>err.txt
expect_eq "table: exit" "$?" 0
expect_eq "table: psync caption" "$(grep -A1 'ioengine=psync$' t.txt | sed -n 2p | grep -c iodepth)" 0
expect_eq "table: null caption" "$(grep -A1 'ioengine=null$' t.txt | sed -n 2p | grep -c 'iodepth=8')" 1

"$bin" "${job[@]}" --sweep ioengine=psync,null --sweep rw=read,write --output-format=json \
  --output=a.json 2>err.txt || fail "json run: $(cat err.txt)"
"$bin" --compare a.json a.json >c.txt 2>err.txt
expect_eq "compare: exit" "$?" 0
expect_eq "compare: psync caption" "$(grep -A1 '^ioengine=psync:' c.txt | sed -n 2p | grep -c iodepth)" 0
expect_eq "compare: null caption" "$(grep -A1 '^ioengine=null:' c.txt | sed -n 2p | grep -c 'iodepth=8')" 1
[ "$fails" -eq 0 ]
