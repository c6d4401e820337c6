#!/bin/bash
# End to end: exitall where new_group splits a phase into reporting groups.
# fio 3.33 stops only the ending job's group when that job's exit_what is
# group (the default); iobench refused such a job file (fio's own
# examples/exitwhat.fio among them) because it could only stop the whole
# phase. 'quick' (exitall, 5 I/Os 10 ms apart) cuts 'mate' of its group;
# 'other' (new_group, 300 I/Os 1 ms apart) runs to its end; 'later'
# (stonewall) is the next phase. Each job's end obeys its own exit_what:
# exit_what=stonewall on 'quick' cuts 'other' too, on 'other' it does not.
# Compared with fio (total_ios from JSON). Args: $1 = iobench binary,
# $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"

# job QUICK_WHAT OTHER_WHAT: the job file.
job() {
  printf '[global]\nioengine=null\nsize=1g\n[quick]\nexitall\nexit_what=%s\nthinktime=10ms\nnumber_ios=5\n[mate]\nthinktime=1ms\nnumber_ios=100000\n[other]\nnew_group\nexit_what=%s\nthinktime=1ms\nnumber_ios=300\n[later]\nstonewall\nnumber_ios=7\n' "$1" "$2"
}
cases=("group group" "stonewall group" "group stonewall")
for c in "${cases[@]}"; do
  set -- $c
  job "$1" "$2" >"$1-$2.fio"
  for t in $(tools); do
    "$(cmd "$t")" --output-format=json "$1-$2.fio" >"$t.$1-$2.json" 2>"$t.$1-$2.err"
    expect_eq "$t quick $1, other $2: exit" "$?" 0
    [ -s "$t.$1-$2.err" ] && fail "$t quick $1, other $2: stderr $(cat "$t.$1-$2.err")"
  done
done
# Per run: "name:groupid:ios", a count below the job's number_ios as "cut".
python3 - "$(tools)" "${cases[@]}" >got.txt <<'PY'
import json, sys
want = {"quick": 5, "mate": 100000, "other": 300, "later": 7}
for t in sys.argv[1].split():
    for c in sys.argv[2:]:
        name = c.replace(" ", "-")
        s = open(f"{t}.{name}.json").read()
        out = []
        for j in json.loads(s[s.find("{"):])["jobs"]:
            n = j["read"]["total_ios"]
            n = "cut" if 0 < n < want[j["jobname"]] else n
            out.append(f'{j["jobname"]}:{j["groupid"]}:{j["error"]}:{n}')
        print(t, name, " ".join(out))
PY
cat got.txt
for t in $(tools); do
  expect_eq "$t group group" "$(grep "^$t group-group " got.txt | cut -d' ' -f3-)" \
    "quick:0:0:5 mate:0:0:cut other:1:0:300 later:2:0:7"
  expect_eq "$t stonewall group" "$(grep "^$t stonewall-group " got.txt | cut -d' ' -f3-)" \
    "quick:0:0:5 mate:0:0:cut other:1:0:cut later:2:0:7"
  expect_eq "$t group stonewall" "$(grep "^$t group-stonewall " got.txt | cut -d' ' -f3-)" \
    "quick:0:0:5 mate:0:0:cut other:1:0:300 later:2:0:7"
done
[ "$fails" -eq 0 ] && echo "ok: exitall stops the ending job's group, as fio"
[ "$fails" -eq 0 ]
