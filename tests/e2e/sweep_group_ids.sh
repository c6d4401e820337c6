#!/bin/bash
# End to end: a sweep's group ids are the same in every format of the run
# (docs/sweep.md, "One JSON document for the whole sweep"): the JSON
# numbers each point's groups after the points before it, and the normal
# report's groupid= / "Run status group N" and terse's field 4 said 0 for
# every point; the interim reports of a point said 0 too.
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
# The interim reports of a point (--status-interval, SIGUSR1) number its
# groups as the final report does: they said 0 at every point, the final
# JSON 0 and 1. Both modes, JSON Lines and normal.
ijob=(--name=a --ioengine=null --time_based --runtime=700ms --size=64k --sweep iodepth=1,2
  --status-interval=200ms)
for mode in cumulative interval; do
  "$bin" "${ijob[@]}" --status-interval-mode=$mode --output-format=json >"$tmp/i.json" 2>>"$tmp/err"
  expect_eq "interim $mode: exit" "$?" 0
  # "point groupid" of each interim report's jobs, then the final report's.
  got=$(python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
interim = set()
for d in lines[:-1]:
    for j in d["jobs"]:
        interim.add((d["iobench"]["point"]["iodepth"], j["groupid"]))
final = set((j["iobench"]["point"]["iodepth"], j["groupid"]) for j in lines[-1]["jobs"])
print(" ".join("%s:%s" % p for p in sorted(interim)), "|", " ".join("%s:%s" % p for p in sorted(final)))
' "$tmp/i.json")
  expect_eq "interim $mode: json groups (interim | final)" "$got" "1:0 2:1 | 1:0 2:1"
done
"$bin" "${ijob[@]}" --output-format=normal >"$tmp/in.out" 2>>"$tmp/err"
# Each point prints its interim reports as it runs, then the final reports
# of all points follow: 0.. 1.. then 0 1 (interim ones said 0.. 0.. 0 1).
ids=$(grep -oE '^Run status group [0-9]+' "$tmp/in.out" | grep -oE '[0-9]+$' | uniq | tr '\n' ' ')
expect_eq "interim normal: Run status group" "$ids" "0 1 0 1 "
[ "$fails" -eq 0 ]
