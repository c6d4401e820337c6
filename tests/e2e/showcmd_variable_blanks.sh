#!/bin/bash
# End to end: a blank that a ${VAR} brings at either end of a value is
# dropped (with a warning that fio keeps it), and --showcmd prints the value
# as iobench uses it: it printed '--bs= 8k ', and running that line warned
# about the blanks on stderr.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
printf '[a]\nioengine=null\nsize=1m\nbs=${X}\nfilename=${F}\n' >job.fio
X=' 8k ' F=' x ' "$bin" --showcmd job.fio >out 2>err
expect_eq "showcmd exit" "$?" 0
expect_eq "bs trimmed" "$(grep -c -- " --bs=8k " out)" 1
expect_eq "filename trimmed" "$(grep -c -- " --filename=x\( \|$\)" out)" 1
# The printed line runs without a word on stderr.
eval "set -- $(cat out)"
shift
"$bin" --parse-only "$@" >out2 2>err2
expect_eq "printed line exit" "$?" 0
expect_eq "printed line stderr" "$(cat err2)" ""
[ "$fails" -eq 0 ]
