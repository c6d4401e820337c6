#!/bin/bash
# End to end: an error about a --sweep value names the --sweep argument, not
# the command line ("--sweep ioengine=syslet-rw: command line: option
# 'ioengine': ..." read as if --ioengine= had been typed), and a check
# between options names the swept one "(<sweep>)" (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
printf '[j]\nioengine=null\nsize=1m\nrw=write\nrate=1m\n' >job.fio
# err ARGS...: stderr of a run that must fail with exit 2.
err() {
  "$bin" job.fio "$@" >/dev/null 2>"$tmp/e"
  local rc=$?
  cat "$tmp/e"
  [ "$rc" -eq 2 ] || echo "exit $rc"
}
expect_eq "removed engine" "$(err --sweep ioengine=libaio,syslet-rw)" \
  "iobench: --sweep ioengine=syslet-rw: option 'ioengine': ioengine 'syslet-rw' is an engine fio removed before 3.33 (fio 3.33 cannot load it either)
ioengine=syslet-rw
         ^"
expect_eq "bad number" "$(err --sweep iodepth_batch=default)" \
  "iobench: --sweep iodepth_batch=default: option 'iodepth_batch': bad number 'default'
iodepth_batch=default
              ^"
expect_eq "engine option" "$(err --sweep force_async=0,1)" \
  "iobench: --sweep force_async=0: option 'force_async' needs ioengine=io_uring; job 'j' uses null
force_async=0
^"
expect_eq "two options" "$(err --sweep rate_iops=10)" \
  "iobench: --sweep rate_iops=10: job 'j': rate (job.fio:5) and rate_iops (<sweep>) are mutually exclusive: give one of them"
# A value from the real command line is still the command line's.
expect_eq "command line" "$(err --iodepth_batch=default --sweep iodepth=1,2)" \
  "command line: option 'iodepth_batch': bad number 'default'
--iodepth_batch=default
                ^"
# A value fio 3.33 reads otherwise is warned of, once however many points
# and jobs use it, before the run (it was silent), and --warnings-fatal
# counts it.
printf '[a]\nioengine=null\nsize=64k\n[b]\nioengine=null\nsize=64k\n' >two.fio
"$bin" two.fio --sweep bs=4ki,4k --sweep iodepth=1,2 --output-format=terse >w.out 2>w.err
expect_eq "warned value: exit" "$?" 0
expect_eq "warned value: stderr" "$(cat w.err)" \
  "--sweep bs=4ki: warning: option 'bs': '4ki' is 4000 bytes to iobench (as man fio documents for kb_base=1024) but 4096 to fio 3.33 (which switches units only for a suffix with 'ib'); write 'bs=4KiB' for iobench's reading or 'bs=4k' for fio's to mean the same to both"
expect_eq "warned value: the run" "$(wc -l <w.out)" 8
"$bin" two.fio --sweep runtime=1sec --warnings-fatal >wf.out 2>wf.err
expect_eq "--warnings-fatal: exit" "$?" 2
expect_eq "--warnings-fatal: stderr" "$(tail -1 wf.err)" \
  "iobench: --warnings-fatal: 1 warning above, not running"
grep -q "^--sweep runtime=1sec: warning: option 'runtime': '1sec' is 1 sec to iobench but 1 us to fio 3.33" wf.err ||
  fail "--warnings-fatal: $(cat wf.err)"
[ "$fails" -eq 0 ]
