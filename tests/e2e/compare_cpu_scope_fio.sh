#!/bin/bash
# --compare fio.json iob.json --table-metric=cpu_per_io: fio's figure is its
# job's own thread (usr_cpu + sys_cpu), iobench's counts the io_uring io-wq
# workers too (cpu_scope own_threads_and_helpers): `3.42 -> 28.6, +737%`
# with no word of it. The iobench side is compared by its own threads'
# figure (cpu_per_io_us less iobench.helpers), and a note under the table
# says so (docs/sweep.md, --compare).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v fio >/dev/null || { echo "skip: fio is not installed"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 is needed to read the JSON"; exit 77; }
job=(--name=j --filename="$tmp/f" --size=8m --ioengine=io_uring --iodepth=8 --rw=randread
  --bs=4k --force_async=1)
"$bin" "${job[@]}" --output-format=json >iob.json 2>err.txt ||
  { echo "skip: io_uring not available: $(head -1 err.txt)"; exit 77; }
fio --thread "${job[@]}" --output-format=json >fio.json 2>/dev/null || fail "fio run"

"$bin" --compare fio.json iob.json --table-metric=cpu_per_io --table-style=csv >c.txt 2>err.txt
expect_eq "exit" "$?" 0
expect_eq "stderr" "$(cat err.txt)" ""
grep -q "^# cpu_per_io: each job's own threads on both sides: fio.json's figures count only them" c.txt ||
  fail "no note: $(cat c.txt)"
# The figures, by hand from the two files.
want=$(python3 - <<'PY'
import json
f = json.load(open("fio.json"))["jobs"][0]
i = json.load(open("iob.json"))["jobs"][0]
fio = (f["usr_cpu"] + f["sys_cpu"]) / 100 * f["job_runtime"] * 1000 / f["read"]["total_ios"]
ib = i["iobench"]
assert ib["cpu_scope"] == "own_threads_and_helpers", ib["cpu_scope"]
helpers = sum(v for k, v in ib["helpers"].items() if k.endswith("_us"))
own = max(0.0, ib["cpu_per_io_us"] - helpers / sum(i[d]["total_ios"] for d in ("read", "write", "trim")))
print("%.4f %.4f" % (fio, own))
PY
)
got=$(grep '^j,' c.txt | awk -F, '{printf "%.4f %.4f", $2, $3}')
expect_eq "figures" "$got" "$want"
"$bin" --compare fio.json iob.json --table-metric=cpu_per_io --output-format=json >c.json 2>err.txt
expect_eq "json: exit" "$?" 0
expect_eq "json: notes" "$(python3 -c 'import json; print(len(json.load(open("c.json"))["iobench"]["compare"]["notes"]))')" 1
[ "$fails" -eq 0 ]
