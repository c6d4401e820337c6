#!/bin/bash
# End to end: the JSON's iobench.cmdline is the command line as a shell
# reads it back (docs/output.md): an argument with spaces, quotes, braces or
# other shell syntax is single-quoted, so pasting it runs the same command
# (--sweep-cmd=echo {bs} {iodepth} was written bare, three words).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
args=(--name=j --ioengine=null --size=64k --sweep bs=4k,8k --sweep iodepth=1,2
  "--sweep-cmd=echo {bs} {iodepth} \"it's\" \$HOME; true" --output-format=json)
"$bin" "${args[@]}" >"$tmp/o.json" 2>"$tmp/err"
expect_eq "exit" "$?" 0
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iobench"]["cmdline"])' \
  "$tmp/o.json")
expect_eq "sweep-cmd quoted" "$(grep -c "'--sweep-cmd=echo {bs} {iodepth} \"it'\\\\''s\" \$HOME; true'" <<<"$cmd")" 1
# What a shell makes of it is the arguments given.
printf '%s\n' iobench "${args[@]}" >"$tmp/want"
eval "set -- $cmd"
printf '%s\n' "$@" >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "the shell reads other words: $(diff "$tmp/want" "$tmp/got")"
[ "$fails" -eq 0 ]
