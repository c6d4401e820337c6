#!/bin/bash
# End to end: terse output with --repeat=N. fio's terse readers take one
# record per job of a run, and a script counts lines and fields; with
# --repeat the result of a run is the median (as the JSON and the tables
# report it), so terse writes one record per job (per sweep point), with the
# median's figures and a single run's layout. It wrote a record per run and
# none for the median: N times the lines of a run, none of them the result
# (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
job=(--ioengine=null --size=1m --name=a --rw=randrw --name=b --rw=read)

"$bin" "${job[@]}" --output-format=terse >"$tmp/one.out" 2>"$tmp/one.err" || fail "single run"
"$bin" "${job[@]}" --repeat=3 --output-format=terse,json --output="$tmp/r.out" 2>"$tmp/r.err"
expect_eq "--repeat=3: exit" "$?" 0
expect_eq "--repeat=3: records" "$(grep -c '^3;' "$tmp/r.out")" 2
expect_eq "--repeat=3: fields as a single run's" \
  "$(grep '^3;' "$tmp/r.out" | awk -F';' '{print NF}' | tr '\n' ' ')" \
  "$(awk -F';' '{print NF}' "$tmp/one.out" | tr '\n' ' ')"
# The figures are the JSON's median: name, read KiB, bw, IOPS, runtime, and
# the write block's (v3: read at fields 6-9, write at 47-50).
python3 - "$tmp/r.out" <<'PY' || fail "terse against the JSON median: $(cat "$tmp/r.out")"
import json, sys
t = open(sys.argv[1]).read()
doc = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
terse = [l.split(";") for l in t.splitlines() if l.startswith("3;")]
assert len(terse) == len(doc["jobs"]), (len(terse), len(doc["jobs"]))
for f, j in zip(terse, doc["jobs"]):
    assert f[2] == j["jobname"], (f[2], j["jobname"])
    for base, d in ((5, "read"), (46, "write")):
        want = [j[d]["io_kbytes"], j[d]["bw"], int(j[d]["iops"]), j[d]["runtime"]]
        got = [int(x) for x in f[base:base + 4]]
        assert got == want, (j["jobname"], d, got, want)
PY
# A sweep: one record per job and point.
"$bin" "${job[@]}" --repeat=2 --sweep bs=4k,8k,16k --output-format=terse >"$tmp/s.out" 2>"$tmp/s.err"
expect_eq "--repeat=2 sweep: exit" "$?" 0
expect_eq "--repeat=2 sweep: records" "$(grep -c '^3;' "$tmp/s.out")" 6
# Other versions too.
for v in 2 4 5; do
  "$bin" "${job[@]}" --terse-version=$v --output-format=terse >"$tmp/v1.out" 2>/dev/null
  "$bin" "${job[@]}" --terse-version=$v --repeat=2 --output-format=terse >"$tmp/v.out" 2>"$tmp/v.err"
  expect_eq "v$v --repeat=2: lines" "$(wc -l <"$tmp/v.out")" "$(wc -l <"$tmp/v1.out")"
  expect_eq "v$v --repeat=2: fields" "$(awk -F';' '{print NF}' "$tmp/v.out" | tr '\n' ' ')" \
    "$(awk -F';' '{print NF}' "$tmp/v1.out" | tr '\n' ' ')"
done
[ "$fails" -eq 0 ]
