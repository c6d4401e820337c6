#!/bin/bash
# End to end: --sweep reads values and range bounds as the jobs read them,
# kb_base included (docs/sweep.md). With kb_base=1000, bs=4k is 4000 bytes:
# 4k,4096 are two values and 4k,4000 one; with fio's default kb_base=1024,
# 4KiB is 4000 (fio's compatibility mode), so a range from 4KiB steps from 4000.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=1m)
# The block sizes each point's job reads, one line per point.
bs_of() { grep '^j:' "$1" | grep -o ' bs=[0-9A-Za-z]*B' | tr -d ' ' | tr '\n' ' '; }

"$bin" "${job[@]}" --kb_base=1000 --parse-only --sweep bs=4k,4096 >"$tmp/o" 2>"$tmp/e"
expect_eq "--kb_base=1000 bs=4k,4096: exit" "$?" 0
expect_eq "--kb_base=1000 bs=4k,4096: sizes" "$(bs_of "$tmp/o")" "bs=4000B bs=4KiB "
printf '[global]\nkb_base=1000\nioengine=null\nsize=1m\n[j]\n' >"$tmp/g.fio"
"$bin" "$tmp/g.fio" --parse-only --sweep bs=4k,4096 >"$tmp/o" 2>"$tmp/e"
expect_eq "[global] kb_base=1000 bs=4k,4096: exit" "$?" 0
"$bin" "${job[@]}" --kb_base=1000 --parse-only --sweep bs=4k,4000 >"$tmp/o" 2>"$tmp/e"
expect_eq "--kb_base=1000 bs=4k,4000: exit" "$?" 2
grep -q "values '4k' and '4000' are the same bs" "$tmp/e" || fail "4k,4000: $(cat "$tmp/e")"
# The default kb_base still reads 4k as 4096.
"$bin" "${job[@]}" --parse-only --sweep bs=4k,4096 >"$tmp/o" 2>"$tmp/e"
expect_eq "bs=4k,4096: exit" "$?" 2

# Range bounds: 4KiB is 4000 to the job (kb_base=1024), so the range steps
# 4000 8000 12000 16000 (it stepped from 4096: 4KiB 8096 ...).
"$bin" "${job[@]}" --parse-only --sweep bs=4KiB..16000:+4000 >"$tmp/o" 2>"$tmp/e"
expect_eq "bs=4KiB..16000:+4000: exit" "$?" 0
expect_eq "bs=4KiB..16000:+4000: sizes" "$(bs_of "$tmp/o")" "bs=4000B bs=8000B bs=12000B bs=16000B "
"$bin" "${job[@]}" --parse-only --sweep bs=4000..4KiB:+96 >"$tmp/o" 2>"$tmp/e"
expect_eq "bs=4000..4KiB:+96: exit" "$?" 0
expect_eq "bs=4000..4KiB:+96: sizes" "$(bs_of "$tmp/o")" "bs=4000B "
# kb_base=1000: 4k..16k steps in 1000s, 4KiB..16KiB in 1024s.
"$bin" "${job[@]}" --kb_base=1000 --parse-only --sweep bs=4000..12k:+4k >"$tmp/o" 2>"$tmp/e"
expect_eq "--kb_base=1000 bs=4000..12k:+4k: sizes" "$(bs_of "$tmp/o")" "bs=4000B bs=8000B bs=12000B "
"$bin" "${job[@]}" --kb_base=1000 --parse-only --sweep bs=4KiB..8192:+4096 >"$tmp/o" 2>"$tmp/e"
expect_eq "--kb_base=1000 bs=4KiB..8192:+4096: sizes" "$(bs_of "$tmp/o")" "bs=4KiB bs=8KiB "
# Jobs that read k differently: a range in k has no one meaning.
printf '[a]\nioengine=null\nsize=1m\nkb_base=1000\n[b]\nioengine=null\nsize=1m\n' >"$tmp/mix.fio"
"$bin" "$tmp/mix.fio" --parse-only --sweep bs=4k..16k:x2 >"$tmp/o" 2>"$tmp/e"
expect_eq "mixed kb_base, bs=4k..16k:x2: exit" "$?" 2
grep -q "the jobs read 'k' differently (kb_base=1000: 1000, kb_base=1024: 1024); write the range's bounds and step in bytes" "$tmp/e" ||
  fail "mixed kb_base: $(cat "$tmp/e")"
"$bin" "$tmp/mix.fio" --parse-only --sweep bs=4k,4096 >"$tmp/o" 2>"$tmp/e"
expect_eq "mixed kb_base, bs=4k,4096 (one job tells them apart): exit" "$?" 0
# kb_base itself is refused: set at a point, after the sizes were read, it
# changed none of them (size=1m read 1 MiB at both points).
for sw in "--sweep kb_base=1000,1024" "--sweep iodepth=1,2 --sweep kb_base=1000"; do
  # shellcheck disable=SC2086
  "$bin" "${job[@]}" --output-format=json $sw >"$tmp/o" 2>"$tmp/e"
  expect_eq "$sw: exit" "$?" 2
  grep -q "kb_base cannot be swept: .*set it in the job file or with --kb_base" "$tmp/e" ||
    fail "$sw: $(cat "$tmp/e")"
  [ -s "$tmp/o" ] && fail "$sw: ran: $(head -c 200 "$tmp/o")"
done
[ "$fails" -eq 0 ]
