#!/bin/bash
# The null engine at iodepth=1 completes each I/O inside fio's queue call
# and has a commit hook, so fio 3.33 counts no submission and no completion:
# submit and complete are 0.0% in every bucket (JSON iodepth_submit and
# iodepth_complete too). iobench printed 4=100.0% for both. At iodepth=8
# (fio queues and commits) and with psync (no commit hook) both tools give
# 4=100.0%.
# With iodepth_batch_complete_min=0 (and _max unset, fio's io_in_polling)
# fio reaps after every I/O and, with a sync engine, counts that call with
# 0 events: psync's complete is 0=50.0%, 4=50.0% (iodepth=16 too), the null
# engine's at iodepth=1 0=100.0%; iobench had 4=100.0% and nothing. With
# _max=4 set fio does not poll: 4=100.0%.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# dist TOOL ARGS...: JSON iodepth_submit "4" and iodepth_complete "4" (and
# with POLL=1 iodepth_complete "0" and "4").
dist() {
  local tool=$1
  shift
  "$tool" --output-format=json --name=a --size=1m --bs=4k --rw=read --filename=f "$@" 2>err |
    python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
c = j["iodepth_complete"]
print(*(c["0"], c["4"]) if sys.argv[1] == "1" else (j["iodepth_submit"]["4"], c["4"]))' "${POLL:-0}" || fail "$tool $*: $(cat err)"
}

for tool in $(tools); do
  c=$(cmd "$tool")
  expect_eq "$tool: null iodepth=1" "$(dist "$c" --ioengine=null)" "0.0 0.0"
  expect_eq "$tool: null iodepth=8" "$(dist "$c" --ioengine=null --iodepth=8)" "100.0 100.0"
  expect_eq "$tool: psync" "$(dist "$c" --ioengine=psync)" "100.0 100.0"
  expect_eq "$tool: psync polling" "$(POLL=1 dist "$c" --ioengine=psync --iodepth=16 \
    --iodepth_batch_complete_min=0)" "50.0 50.0"
  expect_eq "$tool: null iodepth=1 polling" "$(POLL=1 dist "$c" --ioengine=null \
    --iodepth_batch_complete_min=0)" "100.0 0.0"
  expect_eq "$tool: psync, _max=4" "$(POLL=1 dist "$c" --ioengine=psync \
    --iodepth_batch_complete_min=0 --iodepth_batch_complete_max=4)" "0.0 100.0"
  out=$("$c" --name=a --size=1m --bs=4k --rw=read --ioengine=null 2>&1)
  grep -q "^     submit    : 0=0.0%, 4=0.0%," <<<"$out" || fail "$tool: normal submit line: $out"
done
[ "$fails" -eq 0 ]
