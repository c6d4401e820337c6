#!/bin/bash
# End to end: exitall on job a (with exit_what=stonewall) and a new_group
# job b running with it. fio stops only b's group when b ends (b's own
# exit_what, the default group, decides); iobench stops the whole phase, so
# this is refused (docs/running.md). The message said "say
# exit_what=stonewall for that" when the user had said it, on a: it names
# where it is needed, on job b (its section's line) or in [global].
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
printf '[a]\nioengine=null\nexitall\nexit_what=stonewall\n[b]\nioengine=null\nnew_group\ntime_based\nruntime=1\n' >j.fio
"$bin" j.fio >out 2>err
expect_eq "exit code" "$?" 2
grep -q "add exit_what=stonewall to job 'b' (j.fio:5) or to \[global\]" err ||
  fail "the message does not say where: $(cat err)"
# Done as it says, the job file runs.
printf '[global]\nexit_what=stonewall\nsize=1m\n' | cat - j.fio >k.fio
"$bin" k.fio >out 2>err
expect_eq "with exit_what=stonewall in [global]: exit code" "$?" 0
sed 's/^new_group$/new_group\nexit_what=group/' j.fio >m.fio
"$bin" m.fio >out 2>err
expect_eq "with exit_what=group on b: exit code" "$?" 2
grep -q "change exit_what=group (m.fio:8) to exit_what=stonewall" err ||
  fail "the message does not name b's exit_what=group: $(cat err)"
"$bin" --name=a --ioengine=null --size=1m --exitall --exit_what=stonewall --name=b \
  --ioengine=null --new_group --time_based --runtime=1 >out 2>err
expect_eq "command line: exit code" "$?" 2
grep -q "add --exit_what=stonewall after --name=b" err || fail "command line: $(cat err)"
[ "$fails" -eq 0 ]
