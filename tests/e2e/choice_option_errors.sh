#!/bin/bash
# Choice options given a value that is not one of their choices: on the
# command line and in a job file, each is refused before any I/O with exit 2,
# the message names the option (and file:line:column in a job file), and the
# echoed line carries a caret under the value. One run per case, null engine.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# case OPTION REASON: REASON is the text after "option 'OPTION': ". An alias
# (iomem, readwrite) is named as written, not as its canonical name.
while IFS='|' read -r opt reason; do
  [ -n "$opt" ] || continue
  # Command line: "command line: option ..." then the argument, caret under the value.
  "$bin" --name=j --ioengine=null --size=1m "--$opt=bogus" >"$tmp/out" 2>"$tmp/err"
  expect_eq "$opt cmdline exit" "$?" 2
  [ -s "$tmp/out" ] && fail "$opt cmdline: report on stdout"
  want=$(printf "command line: option '%s': %s\n--%s=bogus\n%*s^" "$opt" "$reason" "$opt" $((${#opt} + 3)) "")
  [ "$(cat "$tmp/err")" = "$want" ] || fail "$opt cmdline message: $(cat "$tmp/err")"
  # Job file, line 4: "FILE:4:COL: option ...", the line, caret under the value.
  printf '[j]\nioengine=null\nsize=1m\n%s=bogus\n' "$opt" >"$tmp/job.fio"
  "$bin" --output-format=json "$tmp/job.fio" >"$tmp/out" 2>"$tmp/err"
  expect_eq "$opt jobfile exit" "$?" 2
  [ -s "$tmp/out" ] && fail "$opt jobfile: report on stdout"
  col=$((${#opt} + 2))
  want=$(printf "%s:4:%d: option '%s': %s\n%s=bogus\n%*s^" "$tmp/job.fio" "$col" "$opt" "$reason" \
    "$opt" $((col - 1)) "")
  [ "$(cat "$tmp/err")" = "$want" ] || fail "$opt jobfile message: $(cat "$tmp/err")"
done <<'CASES'
exit_what|bad exit_what 'bogus' (group, stonewall, all)
file_service_type|bad file_service_type 'bogus' (roundrobin, sequential, random)
rw_sequencer|bad rw_sequencer 'bogus' (sequential, identical)
random_generator|bad random_generator 'bogus' (tausworthe, lfsr, tausworthe64)
sync|bad sync mode 'bogus' (none, sync, dsync, 0, 1)
rate_process|bad rate_process 'bogus' (linear, poisson)
unit_base|bad number 'bogus' (one of 0|1|8)
replay_skip|'bogus' is not one of read, write, trim, sync
io_submit_mode|must be inline or offload, got 'bogus'
dedupe_mode|must be repeat or working_set, got 'bogus'
cpus_allowed_policy|bad cpus_allowed_policy 'bogus' (shared, split)
verify|bad verify type 'bogus'
iomem|bad mem type 'bogus' (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared)
readwrite|bad rw mode 'bogus' (read, write, trim, randread, randwrite, randtrim, rw, randrw, trimwrite, randtrimwrite)
CASES

# A number outside the option's set: the reason does not name the option a
# second time ("option 'unit_base': unit_base must be ...").
for c in "unit_base=5|must be 0, 1 or 8" "kb_base=1023|must be 1000 or 1024"; do
  arg=${c%%|*} reason=${c#*|}
  "$bin" --name=j --ioengine=null --size=1m "--$arg" >/dev/null 2>"$tmp/err"
  expect_eq "$arg exit" "$?" 2
  head -1 "$tmp/err" | grep -qxF "command line: option '${arg%%=*}': $reason" ||
    fail "$arg message: $(head -1 "$tmp/err")"
done
[ "$fails" -eq 0 ] && echo "ok: every bad choice names its option, exit 2"
[ "$fails" -eq 0 ]
