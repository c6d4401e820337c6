#!/usr/bin/env bash
# IOS/call's reap figure when reaping by polling
# (iodepth_batch_complete_min=0): an empty poll that entered the kernel is a
# reap call. Before, io_uring and libaio counted only the reaps that
# returned I/O, so a polling job printed "reap=1.00" next to JSON
# reap_calls=4096 and reap_syscalls=4980569 (more system calls than calls).
# Now reap_syscalls <= reap_calls, and the normal report's figure is
# reaped / reap_calls.
source "$2/tests/e2e/setup.bash"
head -c 16M /dev/zero >f
for engine in io_uring libaio; do
  extra=()
  [ "$engine" = libaio ] && extra=(--userspace_reap=0)
  "$bin" --name=j --filename=f --ioengine=$engine --rw=randread --bs=4k --size=16m \
    --iodepth=64 --iodepth_batch_complete_min=0 --iodepth_batch_complete_max=0 "${extra[@]}" \
    --output-format=json,normal >out 2>err
  expect_eq "$engine: exit status" "$?" 0
  python3 - out "$engine" <<'PY' || fail "$engine: IOS/call and the reap counters disagree"
import json, re, sys
text = open(sys.argv[1]).read()
doc, end = json.JSONDecoder().raw_decode(text, text.index("\n{\n") + 1)
c = doc["jobs"][0]["iobench"]["ios_per_call"]
assert c["reaped"] == 4096, c
assert 0 < c["reap_syscalls"] <= c["reap_calls"], c
m = re.search(r"IOS/call\s*: submit=[\d.]+, reap=([\d.]+)", text[end:])
assert m, text[end:]
assert abs(float(m.group(1)) - c["reaped"] / c["reap_calls"]) < 0.006, (m.group(1), c)
PY
done
[ "$fails" -eq 0 ]
