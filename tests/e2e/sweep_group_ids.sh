#!/bin/bash
# End to end: a sweep's group ids are the same in every format of the run
# (docs/sweep.md, "One JSON document for the whole sweep"): the JSON
# numbers each point's groups after the points before it, and the normal
# report's groupid= / "Run status group N" and terse's field 4 said 0 for
# every point.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
job=(--name=a --ioengine=null --size=64k --name=b --stonewall --ioengine=null --size=64k
  --sweep bs=4k,8k)
"$bin" "${job[@]}" --output-format=json >"$tmp/o.json" 2>"$tmp/err"
expect_eq "json: exit" "$?" 0
json=$(python3 -c 'import json,sys; print(" ".join(str(j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]))' "$tmp/o.json")
expect_eq "json: groups" "$json" "0 1 2 3"
"$bin" "${job[@]}" --output-format=terse >"$tmp/t.out" 2>>"$tmp/err"
expect_eq "terse: groups" "$(cut -d';' -f4 "$tmp/t.out" | tr '\n' ' ')" "$json "
"$bin" "${job[@]}" --repeat=2 --output-format=terse >"$tmp/tr.out" 2>>"$tmp/err"
expect_eq "terse --repeat: groups" "$(cut -d';' -f4 "$tmp/tr.out" | tr '\n' ' ')" "$json "
"$bin" "${job[@]}" --output-format=normal >"$tmp/n.out" 2>>"$tmp/err"
expect_eq "normal: groupid=" \
  "$(grep -oE '^[ab]: \(groupid=[0-9]+' "$tmp/n.out" | grep -oE '[0-9]+$' | tr '\n' ' ')" "$json "
expect_eq "normal: Run status group" \
  "$(grep -oE '^Run status group [0-9]+' "$tmp/n.out" | grep -oE '[0-9]+$' | tr '\n' ' ')" "$json "
expect_eq "normal: (g=N)" \
  "$(grep -oE '^[ab]: \(g=[0-9]+\)' "$tmp/n.out" | grep -oE '[0-9]+' | tr '\n' ' ')" "$json "
[ "$fails" -eq 0 ]
