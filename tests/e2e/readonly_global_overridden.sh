#!/bin/bash
# --readonly judges each job as it will run: a [global] rw=write that job a
# overrides with rw=read does not hold for a, which runs (fio 3.33 refuses
# the [global] line itself, "job <(null)> has write or trim bit set", and
# runs nothing; docs/safety.md says so). A job that keeps the [global]'s
# rw=write is still refused, naming that line.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp

printf '[global]\nioengine=null\nsize=64k\nrw=write\n[a]\nrw=read\n' >ro.fio
expect_run "[global] rw=write, [a] rw=read" 0 "" -- "$bin" --readonly ro.fio --output-format=terse
grep -q '^3;[^;]*;a;' "$work/out" || fail "job a did not run: $(head -c 300 "$work/out")"
printf '[b]\n' >>ro.fio
expect_run "[b] keeps rw=write" 2 "^iobench: --readonly: job 'b' writes \(rw=write at ro.fio:4\)" \
  -- "$bin" --readonly --parse-only ro.fio
[ "$fails" -eq 0 ]
