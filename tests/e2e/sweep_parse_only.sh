#!/bin/bash
# End to end: --showcmd and --parse-only with --sweep show each point's jobs
# (they showed the base job: iodepth=1 for --sweep iodepth=8,16), with the
# point named, and a --sweep-cmd hook's command before the point's command
# line (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
tmp=$(mktemp -d /var/tmp/iobench_sweep_parse_only.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
bad() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
job=(--name=n --ioengine=null --size=64k)

"$bin" "${job[@]}" --sweep iodepth=8,16 --showcmd >"$tmp/s.out" 2>"$tmp/s.err" ||
  bad "--showcmd: exit $? $(cat "$tmp/s.err")"
printf '%s\n' '# --sweep point iodepth=8' 'iobench --name=n --ioengine=null --size=64k --iodepth=8' \
  '# --sweep point iodepth=16' 'iobench --name=n --ioengine=null --size=64k --iodepth=16' >"$tmp/want"
cmp -s "$tmp/want" "$tmp/s.out" || bad "--showcmd: $(cat "$tmp/s.out")"

# The hook's command before each point's; a blank in a value stays inside
# the hook's quotes. A newline in a value is refused, as in a job file and
# in an option on the command line (it split a point's terse record).
"$bin" "${job[@]}" --sweep setra=0,64 --sweep 'description=a b' \
  --sweep-cmd='echo {setra} >/dev/null' --showcmd >"$tmp/h.out" 2>"$tmp/h.err" ||
  bad "--showcmd with a hook: exit $? $(cat "$tmp/h.err")"
grep -qx '# --sweep point setra=64 description=a b' "$tmp/h.out" || bad "hook: $(cat "$tmp/h.out")"
grep -qx 'echo 64 >/dev/null' "$tmp/h.out" || bad "hook: $(cat "$tmp/h.out")"
"$bin" "${job[@]}" --sweep 'description=a
b' --showcmd >"$tmp/h.out" 2>"$tmp/h.err"
[ $? -eq 2 ] || bad "a newline in a sweep value: not refused"
grep -qx "iobench: --sweep description=a\\\\nb: control character (newline) in a value: it is refused, as it is in a job file" \
  "$tmp/h.err" || bad "a newline in a sweep value: $(cat "$tmp/h.err")"

"$bin" "${job[@]}" --sweep iodepth=8,16 --parse-only >"$tmp/p.out" 2>"$tmp/p.err" ||
  bad "--parse-only: exit $? $(cat "$tmp/p.err")"
[ "$(grep -c '^=== iodepth=' "$tmp/p.out")" -eq 2 ] || bad "--parse-only: $(cat "$tmp/p.out")"
grep -q "^n: .* iodepth=16 " "$tmp/p.out" || bad "--parse-only: $(cat "$tmp/p.out")"
grep -q " iodepth=1 " "$tmp/p.out" && bad "--parse-only shows the base iodepth: $(cat "$tmp/p.out")"

"$bin" "${job[@]}" --sweep iodepth=8,16 --parse-only --output-format=json >"$tmp/j.out" \
  2>"$tmp/j.err" || bad "--parse-only json: exit $? $(cat "$tmp/j.err")"
python3 - "$tmp/j.out" <<'PY' || bad "--parse-only json: $(head -c 1000 "$tmp/j.out")"
import json, sys
doc = json.load(open(sys.argv[1]))
got = [(p["point"], p["jobs"][0]["options"]["iodepth"]["value"]) for p in doc["points"]]
assert got == [({"iodepth": "8"}, "8"), ({"iodepth": "16"}, "16")], got
PY

# A bad value is refused, as a run would refuse it.
"$bin" "${job[@]}" --sweep iodepth=8,x --showcmd >/dev/null 2>"$tmp/e.err"
rc=$?
[ $rc -eq 2 ] || bad "--showcmd with a bad value: exit $rc, want 2"
grep -q "^iobench: --sweep iodepth=x: " "$tmp/e.err" || bad "message: $(cat "$tmp/e.err")"
[ "$fails" -eq 0 ]
