#!/bin/bash
# End to end: a sweep point that a run would refuse at its set-up. What can
# be checked before the first point runs (the options, --readonly, a region
# smaller than bs where the file is known) refuses the whole sweep, naming
# the point, and nothing runs; --parse-only refuses it alike. What only a
# run can tell (an engine's probe of a file the sweep creates) fails that
# point alone: the others run, the table and the JSON say why, and the JSON's
# exit_code is the process's (docs/sweep.md).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}
job=(--name=j --ioengine=null --size=64k)

# A region under the block: refused before bs=4k runs.
"$bin" "${job[@]}" --sweep bs=4k,8k,128k --output-format=json,table --output="$tmp/late.json" \
  2>"$tmp/late.err"
expect_eq "bs=128k refused: exit" "$?" 2
grep -q "^iobench: --sweep point bs=128k: job 'j': the region .*smaller than the bs=131072" \
  "$tmp/late.err" || fail "bs=128k message: $(cat "$tmp/late.err")"
expect_eq "bs=128k: nothing written" "$(cat "$tmp/late.json" 2>/dev/null | wc -c)" 0
"$bin" "${job[@]}" --parse-only --sweep bs=128k >"$tmp/po.out" 2>"$tmp/po.err"
expect_eq "--parse-only bs=128k: exit" "$?" 2
grep -q "sweep point bs=128k" "$tmp/po.err" || fail "--parse-only message: $(cat "$tmp/po.err")"

# --readonly: the write point is refused before the read point runs.
"$bin" "${job[@]}" --readonly --sweep rw=read,write >"$tmp/ro.out" 2>"$tmp/ro.err"
expect_eq "--readonly rw=read,write: exit" "$?" 2
grep -q "sweep point rw=write: --readonly: job 'j' writes" "$tmp/ro.err" ||
  fail "--readonly message: $(cat "$tmp/ro.err")"
grep -q "rw=read" "$tmp/ro.out" && fail "--readonly: the read point ran: $(cat "$tmp/ro.out")"

# Known only at run time: nowait=1 on tmpfs (the file is created by the
# first point). Each such point fails alone; pvsync2 nowait=0 still runs.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  f=/dev/shm/iobench_sweep_refused.$$
  rm -f "$f"
  "$bin" --name=j --filename="$f" --size=64k --sweep ioengine=pvsync2,io_uring --sweep nowait=1,0 \
    --output-format=json,table --output="$tmp/nw.out" 2>"$tmp/nw.err"
  rc=$?
  rm -f "$f"
  if grep -q "nowait=1.*not supported" "$tmp/nw.err"; then
    expect_eq "nowait=1 refused at run time: exit" "$rc" 2
    grep -q "^iobench: --sweep point ioengine=pvsync2 nowait=1: " "$tmp/nw.err" ||
      fail "nowait message names no point: $(cat "$tmp/nw.err")"
    python3 - "$tmp/nw.out" <<'PY' || fail "nowait JSON: $(cat "$tmp/nw.out")"
import json, sys
t = open(sys.argv[1]).read()
d = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
pts = [j["iobench"]["point"] for j in d["jobs"]]
assert {"ioengine": "pvsync2", "nowait": "0"} in pts, pts
assert d["iobench"]["exit_code"] == 2, d["iobench"]["exit_code"]
sw = d["iobench"]["sweep"]
assert {"ioengine": "pvsync2", "nowait": "1"} in sw["not_run"], sw["not_run"]
assert sw["refused"][0]["point"] == {"ioengine": "pvsync2", "nowait": "1"}, sw
assert "not supported" in sw["refused"][0]["error"], sw
PY
    grep -q "^not run (refused at its set-up: job 'j': pvsync2: nowait=1 .*): ioengine=pvsync2 nowait=1$" \
      "$tmp/nw.out" || fail "nowait table note: $(cat "$tmp/nw.out")"
  else
    echo "skip: nowait=1 is not refused on /dev/shm here"
  fi
fi
[ "$fails" -eq 0 ]
