#!/bin/bash
# A misspelled option on the command line is suggested from the job options
# and the tool options alike, the nearer of the two, as fio suggests both:
# `--output-formt=json` got a bare "unknown option 'output-formt'".
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp
job=(--name=t --ioengine=null --size=64k)
for pair in output-formt:--output-format outptu:--output sectoin:--section \
  terse-verison:--terse-version minmal:--minimal readonyl:--readonly \
  status-intreval:--status-interval bandwith-log:--bandwidth-log warning-fatal:--warnings-fatal \
  parse-onyl:--parse-only Minimal:--minimal; do
  typo=${pair%%:*} want=${pair#*:}
  expect_run "--$typo" 2 "^command line: unknown option '$typo'; did you mean '$want'\\?$" -- \
    "$bin" "${job[@]}" "--$typo=1"
done
# Job options are still suggested, on the command line and in a job file.
expect_run "--iodpth" 2 "unknown option 'iodpth'; did you mean 'iodepth'\\?" -- \
  "$bin" "${job[@]}" --iodpth=4
printf '[t]\nioengine=null\noutptu=x\n' >j.fio
expect_run "outptu= in a job file" 2 "unknown option 'outptu'$" -- "$bin" j.fio
# A command-line option in a job file is named as one (it got "unknown
# option 'eta'; did you mean 'ba'?"), and a full-width '=' is named.
printf '[t]\nioengine=null\neta=never\n' >j.fio
expect_run "eta= in a job file" 2 \
  "^j.fio:3:1: option 'eta' is a command-line option, not a job option: give it to iobench as --eta=never$" -- \
  "$bin" j.fio
printf '[t]\nioengine=null\nbs\xef\xbc\x9d8k\n' >j.fio
expect_run "full-width = in a job file" 2 "is not the ASCII '='\); did you mean 'bs=8k'\?$" -- \
  "$bin" j.fio
[ "$fails" -eq 0 ]
