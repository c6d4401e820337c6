#!/usr/bin/env bash
# fio 3.33 refuses an include before the first section, whatever the file
# holds (options, nothing but a comment, or sections): "option <include x>
# outside of [] job section". iobench refused it only when the file held an
# option, and ran the job after an include of an empty file.
source "$2/tests/e2e/setup.bash"
work=$tmp

printf '# c\n' >empty.inc
printf 'size=64k\n' >opt.inc
for inc in empty.inc opt.inc; do
  printf '; head\ninclude %s\n[a]\nioengine=null\nsize=64k\n' "$inc" >j.fio
  expect_run "include $inc first" 2 "j.fio:2:1: include outside of a section" -- "$bin" j.fio
done
# Under a section it is read as before.
printf '[a]\nioengine=null\ninclude empty.inc\ninclude opt.inc\n' >k.fio
expect_run "include in a section" 0 "" -- "$bin" --parse-only k.fio
[ "$fails" -eq 0 ]
