#!/bin/bash
# End to end: --compare against jobs still to run lists the entries the
# run's report will hold (docs/sweep.md): with group_reporting one per
# group, named after its first job, as the run reports it. The list named
# every job, "only in this run: b" of a job merged into a's group, which
# no run reports; a stats=0 job is in no report either.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
work=$tmp
printf '[global]\ngroup_reporting\nioengine=null\nsize=1m\n[a]\nrw=read\nnumjobs=2\n[b]\nrw=write\n' >gr.fio
printf '[c]\nnew_group\nstonewall\n[s]\nstats=0\n' >>gr.fio
"$bin" --name=x --ioengine=null --size=1m --output-format=json --output=x.json 2>err ||
  fail "x.json: $(cat err)"
expect_run "another job file" 2 "^iobench: compare: no job of x.json matches" -- \
  "$bin" --compare x.json gr.fio
expect_eq "the lists" "$(grep '^only in' "$work/err")" "only in x.json: x
only in this run: a
only in this run: c"
# What the run reports, and a comparison with it, agree.
"$bin" gr.fio --output-format=json --output=gr.json 2>err || fail "gr.json: $(cat err)"
expect_eq "the run's entries" "$(python3 -c 'import json
print(" ".join(j["jobname"] for j in json.load(open("gr.json"))["jobs"]))')" "a c"
expect_run "its own results" 0 "" -- "$bin" --compare gr.json gr.fio --output-format=table
grep -q "^only in" "$work/out" && fail "its own results: $(grep '^only in' "$work/out")"
# Without group_reporting each job is its own entry, as before.
sed '/^group_reporting$/d' gr.fio >plain.fio
expect_run "without group_reporting" 2 "" -- "$bin" --compare x.json plain.fio
expect_eq "the lists without group_reporting" "$(grep '^only in this run' "$work/err")" \
  "only in this run: a
only in this run: b
only in this run: c"
[ "$fails" -eq 0 ]
