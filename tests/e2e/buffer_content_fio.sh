#!/bin/bash
# What the data written and laid out looks like, against fio 3.33 on the
# same jobs: the fraction of distinct 4k blocks, zlib's ratio per 4k block
# (compression within a block) and per 16k piece (across blocks: a buffer
# written again with a few bytes scrambled compresses there).
#  - a dedupe working set that leaves too little to repeat is refused.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
# Impossible working sets: refused before any I/O, as fio (exit 1 there).
cat >ws.fio <<'JOB'
[ws]
filename=W
rw=write
size=4m
dedupe_mode=working_set
dedupe_percentage=90
dedupe_working_set_percentage=50
JOB
"$bin" ws.fio >out.txt 2>err.txt
expect_eq "ws 90+50: exit" "$?" 2
grep -q "dedupe_percentage=90 (ws.fio:6)" err.txt || fail "ws 90+50: $(cat err.txt)"
grep -q "dedupe_working_set_percentage=50 (ws.fio:7)" err.txt || fail "ws 90+50: $(cat err.txt)"
[ -e W ] && fail "ws 90+50: the file was made"
"$bin" --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
  --dedupe_percentage=100 >out.txt 2>err.txt
expect_eq "ws 100+5: exit" "$?" 2
grep -q "dedupe_percentage=100 (<cmdline>)" err.txt || fail "ws 100+5: $(cat err.txt)"
for t in $(tools); do  # the boundary: 95 + 5 = 100 runs
  rm -f W
  "$(cmd "$t")" --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
    --dedupe_percentage=95 --output-format=terse >/dev/null 2>err.txt
  expect_eq "$t ws 95+5: exit ($(head -c 300 err.txt))" "$?" 0
  if fio_side && [ "$t" = iob ]; then
    fio --name=ws --filename=W --rw=write --size=4m --dedupe_mode=working_set \
      --dedupe_percentage=96 >/dev/null 2>&1
    expect_eq "fio ws 96+5: exit" "$?" 1
  fi
done
[ "$fails" -eq 0 ]
