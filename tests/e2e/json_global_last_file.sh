#!/bin/bash
# JSON "global options" with several job files (docs/output.md): the
# [global] lines the last job takes, as fio lists the last file's [global]
# when that file holds the last job. Where fio lists a [global] no job takes
# (after the last job, or in a last file that defines no jobs) iobench does
# not; the doc says so, and this pins both sides.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

printf '[global]\nioengine=null\nbs=8k\nsize=64k\n[a]\n' >a.fio
printf '[b]\nioengine=null\nsize=64k\n' >b.fio
printf '[global]\nioengine=null\n' >og.fio
printf '[global]\nioengine=null\nsize=64k\n[t]\n[global]\nbs=8k\n' >tg.fio
# globals TOOL FILES...: the "global options" object, or None.
globals() {
  local tool=$1
  shift
  "$(cmd "$tool")" --output-format=json "$@" 2>err | python3 -c '
import json, sys
t = sys.stdin.read()
print(json.loads(t[t.find("{"):]).get("global options"))' || fail "$tool $*: $(cat err)"
}
for tool in $(tools); do
  expect_eq "$tool: a.fio b.fio" "$(globals "$tool" a.fio b.fio)" "None"
  expect_eq "$tool: b.fio a.fio" "$(globals "$tool" b.fio a.fio)" \
    "{'ioengine': 'null', 'bs': '8k', 'size': '64k'}"
done
expect_eq "iob: a.fio og.fio" "$(globals iob a.fio og.fio)" \
  "{'ioengine': 'null', 'bs': '8k', 'size': '64k'}"
expect_eq "iob: tg.fio" "$(globals iob tg.fio)" "{'ioengine': 'null', 'size': '64k'}"
if fio_side; then
  expect_eq "fio: a.fio og.fio" "$(globals fio a.fio og.fio)" "{'ioengine': 'null'}"
  expect_eq "fio: tg.fio" "$(globals fio tg.fio)" "{'ioengine': 'null', 'size': '64k', 'bs': '8k'}"
fi
[ "$fails" -eq 0 ]
