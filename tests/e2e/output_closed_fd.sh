#!/bin/bash
# End to end: --output naming a standard descriptor that iobench was started
# with closed (/dev/stdout, /proc/self/fd/1, /dev/fd/1 under `>&-`;
# /dev/stderr under `2>&-`). main holds /dev/null on a closed one, and
# opening that again by path worked: the report went to /dev/null, exit 0
# (fio 3.33: "output file open error", exit 1). It is refused before the
# run, naming --output and the descriptor, exit 2 as other bad --output
# paths are. --output=/dev/null itself still works, and so does
# --output=/dev/stdout with stdout open.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=w --ioengine=null --size=1m --output-format=json)
for path in /dev/stdout /proc/self/fd/1 /dev/fd/1; do
  "$bin" --output="$path" "${job[@]}" >&- 2>err
  expect_eq "--output=$path, stdout closed: exit code" "$?" 2
  expect_eq "--output=$path, stdout closed: stderr" "$(cat err)" \
    "iobench: --output=$path: it names standard output (descriptor 1), which is closed or read-only: the report would be lost"
done
"$bin" --output=/dev/stderr "${job[@]}" 2>&-
expect_eq "--output=/dev/stderr, stderr closed: exit code" "$?" 2
"$bin" --output=/dev/stdin "${job[@]}" <&- 2>err
expect_eq "--output=/dev/stdin, stdin closed: exit code" "$?" 2
grep -q "standard input (descriptor 0)" err || fail "stdin closed: $(cat err)"
"$bin" --output=/dev/null "${job[@]}" >&- 2>err
expect_eq "--output=/dev/null, stdout closed: exit code" "$?" 0
expect_eq "--output=/dev/null, stdout closed: stderr" "$(cat err)" ""
"$bin" --output=/dev/stdout "${job[@]}" >out 2>err
expect_eq "--output=/dev/stdout, stdout open: exit code" "$?" 0
python3 -c 'import json; json.load(open("out"))' || fail "--output=/dev/stdout: no JSON report"
[ "$fails" -eq 0 ]
