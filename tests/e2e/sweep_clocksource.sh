#!/bin/bash
# End to end: each sweep point reads the clock its own jobs ask for
# (docs/sweep.md, docs/running.md "clocksource"). --sweep
# clocksource=cpu,clock_gettime ran both points on the base jobs' clock, and
# the JSON's job options named the other one.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
flags=$(grep -m1 '^flags' /proc/cpuinfo)
if [ "$(uname -m)" != x86_64 ] || [[ " $flags " != *" constant_tsc "* ]] ||
  [[ " $flags " != *" nonstop_tsc "* ]]; then
  echo "skip: no invariant TSC, so clocksource=cpu reads clock_gettime too"
  exit 77
fi
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=j --ioengine=null --size=1m)
# The clock each point's header names, in run order.
clocks() { grep -o ', clock [a-z_]*' "$1" | sed 's/, clock //' | tr '\n' ' '; }
# The JSON context's clock, and its clocks ([clock, its points' clocksource...]).
ctx() {
  python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["context"]
print(c["clock"], [[e["clock"]] + [p["clocksource"] for p in e["points"]] for e in c["clocks"]]
      if "clocks" in c else "-")' "$1"
}

"$bin" "${job[@]}" --sweep clocksource=cpu,clock_gettime --output-format=normal >"$tmp/o" 2>"$tmp/e"
expect_eq "cpu,clock_gettime: exit" "$?" 0
expect_eq "cpu,clock_gettime: clocks" "$(clocks "$tmp/o")" "tsc clock_gettime "
# The base job's clocksource does not hold the points either.
"$bin" "${job[@]}" --clocksource=cpu --sweep clocksource=clock_gettime,cpu \
  --output-format=normal,json >"$tmp/o" 2>"$tmp/e"
expect_eq "--clocksource=cpu, clock_gettime,cpu: exit" "$?" 0
expect_eq "--clocksource=cpu, clock_gettime,cpu: clocks" "$(clocks "$tmp/o")" "clock_gettime tsc "
# The JSON's context names both clocks and which points read which.
sed -n '/^{/,/^}/p' "$tmp/o" >"$tmp/o.json"
expect_eq "JSON context" "$(ctx "$tmp/o.json")" \
  "clock_gettime,tsc [['clock_gettime', 'clock_gettime'], ['tsc', 'cpu']]"
# A sweep whose points share a clock keeps one name and no list.
"$bin" "${job[@]}" --clocksource=clock_gettime --sweep iodepth=1,2 --output-format=json >"$tmp/o" 2>"$tmp/e"
expect_eq "one clock: JSON context" "$(ctx "$tmp/o")" "clock_gettime -"
[ "$fails" -eq 0 ]
