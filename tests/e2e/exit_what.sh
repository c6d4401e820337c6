#!/bin/bash
# exitall with exit_what (null engine): job 'quick' (exitall) ends after 5
# I/Os while 'slow' (100000 I/Os 1 ms apart; for stonewall and all in a
# reporting group of its own) is still running; 'later' (stonewall, 7 I/Os)
# is the next phase. As fio 3.33 (total_ios from JSON, each run twice):
#  - exit_what=group (default) and =stonewall: 'slow' is cut, 'later' runs;
#  - exit_what=all: 'slow' is cut and 'later' does not run (0 I/Os);
# every job ends without error, exit 0, nothing on stderr.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

whats=(group stonewall all)
for w in "${whats[@]}"; do
  # stonewall and all stop other reporting groups too ('slow' has its own);
  # group beside another group stops only its own (exitall_new_group.sh).
  ng=new_group
  [ "$w" = group ] && ng=
  printf '[global]\nioengine=null\nsize=1g\nexit_what=%s\n[quick]\nexitall\nthinktime=10ms\nnumber_ios=5\n[slow]\n%s\nthinktime=1ms\nnumber_ios=100000\n[later]\nstonewall\nnumber_ios=7\n' \
    "$w" "$ng" >"$w.fio"
  for t in $(tools); do
    "$(cmd "$t")" --output-format=json "$w.fio" >"$t.$w.json" 2>"$t.$w.err"
    expect_eq "$t exit_what=$w: exit" "$?" 0
    [ -s "$t.$w.err" ] && fail "$t exit_what=$w: stderr $(cat "$t.$w.err")"
  done
done
# Per run: "name:error:ios" with slow's count as "cut" when 0 < ios < 100000.
python3 - "$(tools)" "${whats[@]}" >got.txt <<'PY'
import json, sys
for t in sys.argv[1].split():
    for w in sys.argv[2:]:
        s = open(f"{t}.{w}.json").read()
        out = []
        for j in json.loads(s[s.find("{"):])["jobs"]:
            n = j["read"]["total_ios"]
            if j["jobname"] == "slow":
                n = "cut" if 0 < n < 100000 else n
            out.append(f'{j["jobname"]}:{j["error"]}:{n}')
        print(t, w, " ".join(out))
PY
for t in $(tools); do
  expect_eq "$t group" "$(grep "^$t group " got.txt | cut -d' ' -f3-)" "quick:0:5 slow:0:cut later:0:7"
  expect_eq "$t stonewall" "$(grep "^$t stonewall " got.txt | cut -d' ' -f3-)" \
    "quick:0:5 slow:0:cut later:0:7"
  expect_eq "$t all" "$(grep "^$t all " got.txt | cut -d' ' -f3-)" "quick:0:5 slow:0:cut later:0:0"
done
# exit_what=stonewall stops the jobs running, not those held back: 'delayed'
# (startdelay) and 'after' (wait_for) run later, as fio's TERMINATE_STONEWALL
# leaves them (iobench stopped both: 0 I/Os), and 'ramping' (2 s of ramp_time,
# past every other job's end: fio's TD_RAMP) runs its second; 'busy' is
# stopped.
# Every job's end then stops the others (exitall is process-wide): 'after'
# runs its second and its end cuts 'delayed', which started meanwhile.
printf '[global]\nioengine=null\nsize=1m\nrw=read\nexit_what=stonewall\n[quick]\nexitall\nthinktime=10ms\nnumber_ios=5\n[busy]\nthinktime=1ms\nnumber_ios=100000\n[delayed]\nstartdelay=1\ntime_based\nruntime=1\n[after]\nwait_for=busy\ntime_based\nruntime=1\n[ramping]\nramp_time=2\ntime_based\nruntime=1\n' >held.fio
for t in $(tools); do
  timeout 60 "$(cmd "$t")" --output-format=json held.fio >"$t.held.json" 2>"$t.held.err"
  expect_eq "$t exit_what=stonewall held back: exit" "$?" 0
  got=$(python3 -c 'import json,sys; s=open(sys.argv[1]).read(); d=json.loads(s[s.find("{"):])
r = {j["jobname"]: j["read"] for j in d["jobs"]}
print("busy cut:%d delayed ran:%d after ran:%d ramping ran:%d" % (r["busy"]["total_ios"] < 100000,
      r["delayed"]["total_ios"] > 0, r["after"]["runtime"] >= 900,
      r["ramping"]["runtime"] >= 900))' "$t.held.json") ||
    { fail "$t held: JSON"; continue; }
  expect_eq "$t exit_what=stonewall held back" "$got" \
    "busy cut:1 delayed ran:1 after ran:1 ramping ran:1"
done
[ "$fails" -eq 0 ] && echo "ok: exit_what stops what fio stops"
[ "$fails" -eq 0 ]
