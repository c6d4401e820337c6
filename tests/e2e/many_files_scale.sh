#!/usr/bin/env bash
# Jobs with a great many files (nrfiles=, or numjobs= clones of many files
# each) parse and run, and their summaries count every file. Their cost is
# a benchmark's business (docs/performance.md, "Jobs with many files"), not
# this test's: it times nothing. The file lists used to be searched once
# per file, so these sizes took minutes (--parse-only of nrfiles=100000:
# 10 s; a group_reporting run of numjobs=10 nrfiles=9000: 21 s) and now
# take about a second.
source "$(dirname "$0")/setup.bash"

printf '[j0]\nioengine=null\nsize=100g\nnrfiles=200000\nnumber_ios=8\n' >nf.fio
"$bin" --parse-only nf.fio >out 2>err
expect_eq "--parse-only, nrfiles=200000: exit" "$?" 0
grep -qF "(200000 files)" out && echo "ok   the summary counts the files" ||
  fail "the summary does not count 200000 files: $(head -c 300 out)"

printf '[j0]\nioengine=null\nsize=1g\nnumber_ios=1\ngroup_reporting\nnumjobs=8\nnrfiles=20000\n' >nj.fio
"$bin" --output-format=json nj.fio >out 2>err
expect_eq "run, numjobs=8 nrfiles=20000 group_reporting: exit" "$?" 0
got=$(python3 -c 'import json; j = json.load(open("out"))["jobs"]; print(len(j), j[0]["job options"]["numjobs"], j[0]["read"]["total_ios"])' 2>/dev/null)
expect_eq "one group record of 8 clones, 8 reads" "$got" "1 8 8"

[ "$fails" -eq 0 ]
