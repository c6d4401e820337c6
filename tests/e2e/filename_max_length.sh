#!/usr/bin/env bash
# fio 3.33 refuses a filename= value of 4096 bytes or more while parsing
# ("value exceeds max length of 4096"); iobench took it and failed later, at
# open. Only filename= is capped in fio (directory=, filename_format= are not).
source "$2/tests/e2e/setup.bash"
work=$tmp

long=$(printf 'a%.0s' $(seq 1 4096))
printf '[j]\nioengine=null\nsize=64k\nfilename=%s\n' "$long" >j.fio
expect_run filename-4096 2 "j.fio:4:.*option 'filename': the value is 4096 bytes long" -- \
  "$bin" --parse-only j.fio
expect_run filename-4096-cmdline 2 "option 'filename': the value is 4096 bytes long" -- \
  "$bin" --parse-only --name=x --ioengine=null --size=64k --filename="$long"
printf '[j]\nioengine=null\nsize=64k\nfilename=%s\n' "${long:1}" >k.fio
expect_run filename-4095 0 "" -- "$bin" --parse-only k.fio
printf '[j]\nioengine=null\nsize=64k\nfilename_format=%s\n' "$long" >l.fio
expect_run filename_format-4096 0 "" -- "$bin" --parse-only l.fio
[ "$fails" -eq 0 ]
