#!/bin/bash
# End to end: --compare reads each results file's sweep points with the
# kb_base its own jobs read them with, as the file records it ("job options",
# "global options"), not fio's default 1024 whatever the jobs used: two files
# saved from a kb_base=1000 job swept bs=4k,4096 (two values there: 4k is
# 4000) were refused as "ambiguous". A file that records no options is read
# by spelling where the kb_base would decide (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=64k)
for f in a b; do
  "$bin" "${job[@]}" --kb_base=1000 --sweep bs=4k,4096 --output-format=json \
    --output="$tmp/$f.json" || fail "kb_base=1000 run $f"
done
"$bin" --compare "$tmp/a.json" "$tmp/b.json" --output-format=table >"$tmp/c.out" 2>"$tmp/c.err"
expect_eq "kb_base=1000 files: exit" "$?" 0
grep -q "^4k  " "$tmp/c.out" || fail "row 4k: $(cat "$tmp/c.out" "$tmp/c.err")"
grep -q "^4096  " "$tmp/c.out" || fail "row 4096: $(cat "$tmp/c.out" "$tmp/c.err")"
grep -q "only in" "$tmp/c.out" && fail "unmatched rows: $(cat "$tmp/c.out")"
# A [global] kb_base=1000 is recorded under "global options": the same.
printf '[global]\nkb_base=1000\nioengine=null\nsize=64k\n[j]\n' >"$tmp/g.fio"
"$bin" "$tmp/g.fio" --sweep bs=4k,4096 --output-format=json --output="$tmp/g.json" || fail "g run"
"$bin" --compare "$tmp/g.json" "$tmp/a.json" --output-format=table >"$tmp/g.out" 2>"$tmp/g.err"
expect_eq "[global] kb_base=1000 against --kb_base=1000: exit" "$?" 0
grep -q "only in" "$tmp/g.out" && fail "[global]: unmatched rows: $(cat "$tmp/g.out")"
# With a run made now, the base file is read with its own kb_base too.
"$bin" "${job[@]}" --kb_base=1000 --sweep bs=4k,4096 --compare "$tmp/a.json" \
  --output-format=table >"$tmp/r.out" 2>"$tmp/r.err"
expect_eq "kb_base=1000 run against a.json: exit" "$?" 0
grep -q "only in" "$tmp/r.out" && fail "run: unmatched rows: $(cat "$tmp/r.out")"

# Values match by what the jobs ran: 4k under kb_base=1000 is 4000 bytes,
# the default kb_base's bs=4000 (the row keeps the base's spelling), and not
# the default kb_base's 4k (4096 bytes).
"$bin" "${job[@]}" --sweep bs=4000,4096 --output-format=json --output="$tmp/d.json" || fail "d run"
"$bin" --compare "$tmp/a.json" "$tmp/d.json" --output-format=json >"$tmp/d.out" 2>"$tmp/d.err"
expect_eq "kb_base=1000 against 1024 bs=4000,4096: exit" "$?" 0
pts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["compare"]
print(" ".join(sorted(r["point"]["bs"] for r in c["rows"])), len(c["only_in_base"]), len(c["only_in_new"]))
' "$tmp/d.out")
expect_eq "kb_base=1000 against 1024: matched points" "$pts" "4096 4k 0 0"
"$bin" "${job[@]}" --sweep bs=4k --output-format=json --output="$tmp/k.json" || fail "k run"
"$bin" --compare "$tmp/a.json" "$tmp/k.json" --output-format=json >"$tmp/k.out" 2>"$tmp/k.err"
pts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["compare"]
print(" ".join(sorted(r["point"]["bs"] for r in c["rows"])))
' "$tmp/k.out")
expect_eq "4k (kb_base=1000) against 4k (1024) is 4096 against 4096" "$pts" "4096"

# The same spelling read two ways is two points, not one: bs=4k at
# kb_base=1000 (4000 bytes) against bs=4k at 1024 (4096 bytes) matches
# nothing (it paired them, delta 0.00), and the new side says its value.
"$bin" "${job[@]}" --sweep bs=4k,8k --kb_base=1000 --output-format=json --output="$tmp/k1000.json" ||
  fail "k1000 run"
"$bin" "${job[@]}" --sweep bs=4k,8k --output-format=json --output="$tmp/k1024.json" ||
  fail "k1024 run"
"$bin" --compare "$tmp/k1000.json" "$tmp/k1024.json" >"$tmp/k.out" 2>"$tmp/k.err"
expect_eq "4k at kb_base=1000 against 4k at 1024: exit" "$?" 2
grep -qF "only in $tmp/k1024.json: t [bs=4k (4096)]" "$tmp/k.err" ||
  grep -qF "[bs=4k (4096)]" "$tmp/k.err" || fail "4k (4096) not named: $(cat "$tmp/k.err")"

# A file without the jobs' options cannot say its kb_base: its values match
# by spelling where the kb_base decides, by value where it does not.
python3 - "$tmp/a.json" "$tmp/u.json" <<'PY' || fail "u.json"
import json, sys
d = json.load(open(sys.argv[1]))
for j in d["jobs"]:
    j.pop("job options", None)
d.pop("global options", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$bin" --compare "$tmp/u.json" "$tmp/b.json" --output-format=json >"$tmp/u.out" 2>"$tmp/u.err"
expect_eq "unknown kb_base against kb_base=1000: exit" "$?" 0
pts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["compare"]
print(" ".join(sorted(r["point"]["bs"] for r in c["rows"])), len(c["only_in_base"]), len(c["only_in_new"]))
' "$tmp/u.out")
expect_eq "unknown kb_base: matched points" "$pts" "4096 4k 0 0"
"$bin" "${job[@]}" --sweep bs=4K,4096 --kb_base=1000 --output-format=json --output="$tmp/s.json" ||
  fail "s run"
"$bin" --compare "$tmp/u.json" "$tmp/s.json" --output-format=json >"$tmp/s.out" 2>"$tmp/s.err"
pts=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["iobench"]["compare"]
print(" ".join(sorted(r["point"]["bs"] for r in c["rows"])), len(c["only_in_base"]), len(c["only_in_new"]))
' "$tmp/s.out")
expect_eq "unknown kb_base: 4k and 4K not matched by a guess" "$pts" "4096 1 1"
[ "$fails" -eq 0 ]
