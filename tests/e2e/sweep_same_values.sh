#!/bin/bash
# End to end: two spellings of one value in a --sweep are refused (the point
# would run twice), as the job reads them: rw=rw,readwrite, direct=1,true,
# iodepth=$ncpus,N, rw=randread,randread:1; and the spaces around a value
# ("iodepth= 1, 2") are no part of it (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
ncpus=$(getconf _NPROCESSORS_ONLN)
# Aliases and per-direction lists as the option reads them: rw=readwrite is
# rw, read:0 is read (no skip), 4k,8k is 4096,8k and 4k,8k,8k (fio's
# carry-over); these ran twice.
for sw in "direct=1,true" "iodepth=\$ncpus,$ncpus" "rw=randread,randread:1" \
  "rw=rw,readwrite" "rw=read,read:0" 'bs=4k\,8k,4096\,8k' 'bs=4k\,8k,4k\,8k\,8k' \
  'bs=4k,4k\,4k'; do
  "$bin" "${job[@]}" --parse-only --sweep "$sw" >"$tmp/o" 2>"$tmp/e"
  expect_eq "$sw: exit" "$?" 2
  grep -q "are the same .*; the point would run twice" "$tmp/e" || fail "$sw: $(cat "$tmp/e")"
done
# A keyword in another case is no spelling of it: READ is refused as the
# job refuses it (fio matches keywords as written), not as a repeat.
"$bin" "${job[@]}" --parse-only --sweep "rw=read,READ" >"$tmp/o" 2>"$tmp/e"
expect_eq "rw=read,READ: exit" "$?" 2
grep -q "bad rw mode 'READ'" "$tmp/e" || fail "rw=read,READ: $(cat "$tmp/e")"
"$bin" "${job[@]}" --parse-only --sweep "verify=md5,MD5" >"$tmp/o" 2>"$tmp/e"
expect_eq "verify=md5,MD5: exit" "$?" 2
grep -q "bad verify type 'MD5'; keywords are case-sensitive" "$tmp/e" ||
  fail "verify=md5,MD5: $(cat "$tmp/e")"
# Values that differ still run.
"$bin" "${job[@]}" --parse-only --sweep "rw=randread:2,randread" >"$tmp/o" 2>"$tmp/e"
expect_eq "rw=randread:2,randread: exit" "$?" 0
for sw in "rw=read,read:4k" 'bs=4k\,8k,8k\,4k' 'bs=4k,4k\,8k'; do
  "$bin" "${job[@]}" --parse-only --sweep "$sw" >"$tmp/o" 2>"$tmp/e"
  expect_eq "$sw: exit" "$?" 0
done
"$bin" "${job[@]}" --sweep "iodepth= 1, 2" --output-format=json >"$tmp/sp.json" 2>"$tmp/sp.err"
expect_eq "spaces: exit" "$?" 0
grep -q '"iodepth" : " 1"\|"iodepth": " 1"' "$tmp/sp.json" && fail "spaces kept: $(grep '"iodepth"' "$tmp/sp.json")"
grep -Eq '"iodepth" ?: "1"' "$tmp/sp.json" || fail "no point iodepth=1: $(grep -n point -A3 "$tmp/sp.json" | head)"
[ "$fails" -eq 0 ]
