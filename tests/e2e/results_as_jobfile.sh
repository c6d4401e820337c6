#!/bin/bash
# End to end: a results file given as a job file (`iobench
# --output-format=table fb.json`) is still refused (exit 2) with the job
# file error, now followed by a line that says it looks like a results file
# and what shows its tables (docs/sweep.md, Tables).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
"$bin" --name=a --ioengine=null --size=1m --output-format=json --output=fb.json 2>"$tmp/e" ||
  fail "fb.json: $(cat "$tmp/e")"
hint="looks like a results file (fio or iobench JSON output), not a job file:"
"$bin" --output-format=table fb.json >"$tmp/o" 2>"$tmp/e"
expect_eq "exit" "$?" 2
expect_eq "stdout" "$(cat "$tmp/o")" ""
expect_eq "error" "$(head -1 "$tmp/e")" "fb.json:2:8: expected '=' between option '\"fio' and its value"
expect_eq "hint" "$(tail -1 "$tmp/e")" "fb.json $hint iobench --compare fb.json NEW.json shows it in tables beside NEW.json (--compare fb.json fb.json shows its figures alone, each delta 0)"
# What the hint says works.
"$bin" --compare fb.json fb.json >"$tmp/o" 2>"$tmp/e" || fail "--compare fb.json fb.json: $(cat "$tmp/e")"
grep -q '^a .* 0\.00$' "$tmp/o" || fail "no delta table row: $(cat "$tmp/o")"
# From stdin: no name to give --compare.
"$bin" - <fb.json >/dev/null 2>"$tmp/e"
expect_eq "stdin exit" "$?" 2
expect_eq "stdin hint" "$(tail -1 "$tmp/e")" "<stdin> $hint save it to a file, then iobench --compare FILE.json NEW.json shows it in tables beside NEW.json (--compare FILE.json FILE.json shows its figures alone, each delta 0)"
[ "$fails" -eq 0 ]
