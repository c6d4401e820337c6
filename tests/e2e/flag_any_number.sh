#!/bin/bash
# fio 3.33 stores its FIO_OPT_STR_SET flags as the number written: a job
# with stonewall=2, thread=3, exitall=7, new_group=2, group_reporting=5 or
# time_based=2 runs there, and iobench refused it ("option 'stonewall' is a
# flag: expected 0 or 1"). Both tools (null engine) now run each with exit 0
# and nothing on stderr, and the same count of reporting groups; fio's true
# bools stay strict in both (direct=2). exitall=0 is on in fio (it ignores
# the value): iobench runs it so and warns.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

base=(--name=x --ioengine=null --size=4k --output-format=json)
for opt in stonewall=2 new_group=2 group_reporting=5 thread=3 exitall=7 exitall_on_error=-1 \
  time_based=2 norandommap=2 zero_buffers=2 refill_buffers=2 bs_unaligned=2; do
  extra=()
  case $opt in time_based=*) extra=(--runtime=1ms) ;; esac
  for t in $(tools); do
    "$(cmd "$t")" "${base[@]}" "${extra[@]}" "--$opt" >"$t.json" 2>"$t.err"
    expect_eq "$t --$opt: exit" "$?" 0
    [ -s "$t.err" ] && fail "$t --$opt: stderr $(head -c 300 "$t.err")"
  done
done

# new_group=2 and stonewall=3 in a job file start a group each; =0 does not.
printf '[global]\nioengine=null\nsize=4k\n[a]\n[b]\nnew_group=2\n[c]\nstonewall=3\n[d]\nnew_group=0\n[e]\nstonewall=0\n' >groups.fio
for t in $(tools); do
  "$(cmd "$t")" --output-format=json groups.fio 2>"$t.err" | python3 -c '
import json, sys
t = sys.stdin.read()
print(" ".join(str(j["groupid"]) for j in json.loads(t[t.find("{"):])["jobs"]))' >"$t.groups"
  expect_eq "$t groups" "$(cat "$t.groups")" "0 1 2 2 2"
done

work=$tmp
expect_run "direct=2 is refused" nonzero \
  "option 'direct' is a flag: expected 0 or 1" -- "$bin" "${base[@]}" --direct=2
expect_run "exitall=0 runs with a warning" 0 \
  "exitall=0 sets exitall, as in fio 3.33" -- "$bin" "${base[@]}" --exitall=0
expect_run "exitall=no is refused" nonzero \
  "exitall=no would not turn exitall off" -- "$bin" "${base[@]}" --exitall=no
[ "$fails" -eq 0 ]
