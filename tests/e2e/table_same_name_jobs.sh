#!/bin/bash
# Two different jobs of one name in one group (--name=x --rw=read --name=x
# --rw=randread) were one table cell, added up as if they were numjobs
# clones of one job (x = 384k: 256k + 128k). Only a job's clones share a
# cell (iobench.clone numbers them; in fio's JSON a clone is an entry with
# its job's options): separate jobs are rows or columns of their own,
# "x (#1)" and "x (#2)", in a sweep, a plain table and --compare.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
two=(--ioengine=null --size=1m --name=x --rw=read --name=x --rw=randread --bs=8k)

"$bin" "${two[@]}" --sweep iodepth=1,2 --output-format=table >sweep.txt 2>err.txt
expect_eq "sweep: exit" "$?" 0
expect_eq "sweep: header" "$(sed -n 3p sweep.txt | tr -s ' ')" "iodepth x (#1) x (#2)"

"$bin" "${two[@]}" --output-format=table,json --output=plain.txt 2>err.txt
expect_eq "plain: exit" "$?" 0
expect_eq "plain: rows" "$(grep -c '^x (#[12]) ' plain.txt)" 2

# numjobs clones of one job still make one cell, beside the other job.
"$bin" "${two[@]}" --numjobs=2 --output-format=json >clones.json 2>err.txt
expect_eq "clones: clone numbers" \
  "$(python3 -c 'import json,sys; print([j["iobench"]["clone"] for j in json.load(open(sys.argv[1]))["jobs"]])' clones.json)" \
  "[0, 0, 1]"
"$bin" --compare=clones.json clones.json >cmp.txt 2>err.txt
expect_eq "clones: compare exit" "$?" 0
expect_eq "clones: compare rows" "$(grep -o '^x\( (#[0-9])\)\?' cmp.txt | tr '\n' ';')" \
  "x (#1);x (#2);"

# --repeat: each job's clones get their own range (iobench.repeat.clones
# was made of both jobs' clones, and the cells had no range).
"$bin" "${two[@]}" --numjobs=2 --sweep iodepth=1,2 --repeat=2 --output-format=table >rep.txt \
  2>err.txt
expect_eq "repeat: exit" "$?" 0
expect_eq "repeat: cells with a range" "$(grep -Eo '[0-9.]+k \([0-9.]+k-[0-9.]+k\)' rep.txt | wc -l)" 4
grep -q "no min-max range" rep.txt && fail "repeat: $(cat rep.txt)"

"$bin" --ioengine=null --size=1m --name=x --numjobs=3 --output-format=table >one.txt 2>err.txt
expect_eq "one job's clones: rows" "$(grep -c '^x ' one.txt)" 1

# fio's JSON has no clone numbers: entries with other options are other jobs.
if command -v fio >/dev/null; then
  fio "${two[@]}" --output-format=json >fio.json 2>/dev/null
  "$bin" --compare=fio.json fio.json >fcmp.txt 2>err.txt
  expect_eq "fio: compare exit" "$?" 0
  expect_eq "fio: rows" "$(grep -o '^x\( (#[0-9])\)\?' fcmp.txt | tr '\n' ';')" \
    "x (#1);x (#2);"
  fio --ioengine=null --size=1m --name=x --numjobs=2 --output-format=json >fclones.json 2>/dev/null
  "$bin" --compare=fclones.json fclones.json >fc.txt 2>err.txt
  expect_eq "fio clones: rows" "$(grep -o '^x\( (#[0-9])\)\?' fc.txt | tr '\n' ';')" "x;"
fi
[ "$fails" -eq 0 ]
