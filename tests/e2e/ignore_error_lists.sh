#!/usr/bin/env bash
# ignore_error and continue_on_error read as fio 3.33 reads them. fio ends
# an ignore_error list at an empty entry (:ENOSPC ignores nothing for
# writes; ENOSPC::EIO no EIO) where iobench skipped it and tolerated more
# than fio: such an entry is refused, naming the option and line. An empty
# list (,EIO) and one ':' at the end mean the same in both and still run.
# continue_on_error takes fio's lower-case words only (=ALL, =Write fail in
# fio), and its error lists 0 and 1.
source "$2/tests/e2e/setup.bash"
work=$tmp

job() { printf '[j]\nioengine=null\nsize=64k\n%s\n' "$1" >j.fio; }
job "ignore_error=,:ENOSPC"
expect_run empty-first-entry 2 "j.fio:4:.*empty entry in ignore_error list ':ENOSPC'" -- \
  "$bin" --parse-only j.fio
job "ignore_error=,ENOSPC::EIO"
expect_run empty-middle-entry 2 "j.fio:4:.*empty entry in ignore_error list 'ENOSPC::EIO'" -- \
  "$bin" --parse-only j.fio
expect_run empty-entry-cmdline 2 "ignore_error.*empty entry" -- \
  "$bin" --parse-only --name=x --ioengine=null --size=64k --ignore_error=EIO::EAGAIN
for ok in ",EIO" "EIO:" "EIO:EAGAIN,ENOSPC"; do
  job "ignore_error=$ok"
  expect_run "accepted $ok" 0 "" -- "$bin" --parse-only j.fio
done

for bad in ALL Write None IO; do
  job "continue_on_error=$bad"
  expect_run "continue_on_error=$bad" 2 \
    "j.fio:4:.*bad continue_on_error '$bad' \(none, read, write, io, verify, all, 0 for none or 1 for all" \
    -- "$bin" --parse-only j.fio
done
for ok in none read write io verify all 0 1; do
  job "continue_on_error=$ok"
  expect_run "continue_on_error=$ok" 0 "" -- "$bin" --parse-only j.fio
done
[ "$fails" -eq 0 ]
