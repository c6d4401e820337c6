#!/usr/bin/env bash
# Jobs with a great many files (nrfiles=, or numjobs= clones of many files
# each) take time in proportion to their files, as fio's do: the file
# lists were searched once per file, so --parse-only of nrfiles=100000 took
# 10 s (nrfiles=1048576 about 20 minutes) and a group_reporting run of
# numjobs=10 nrfiles=9000 21 s where fio takes 1.4 s. The limits below are
# 30 to 100 times what the runs take now, and a small part of what they
# took before: a slow machine passes, a quadratic search does not.
source "$(dirname "$0")/setup.bash"

within() {  # SECONDS NAME CMD...: CMD succeeds before SECONDS have passed
  local s=$1 name=$2
  shift 2
  if timeout "$s" "$@" >out 2>err; then
    echo "ok   $name (within ${s} s)"
  else
    local rc=$?
    [ "$rc" -eq 124 ] && fail "$name: not done after $s s" || fail "$name: exit $rc: $(head -3 err)"
  fi
}

printf '[j0]\nioengine=null\nsize=100g\nnrfiles=1048576\nnumber_ios=8\n' >nf.fio
within 120 "--parse-only, nrfiles=1048576" "$bin" --parse-only nf.fio
grep -qF "(1048576 files)" out && echo "ok   the summary counts the files" ||
  fail "the summary does not count 1048576 files: $(head -c 300 out)"

printf '[j0]\nioengine=null\nsize=1g\nnumber_ios=1\ngroup_reporting\nnumjobs=8\nnrfiles=50000\n' >nj.fio
within 60 "run, numjobs=8 nrfiles=50000 group_reporting" "$bin" --output-format=json nj.fio
files=$(python3 -c 'import json,sys; print(json.load(open("out"))["jobs"][0]["job options"]["numjobs"])' 2>/dev/null)
expect_eq "the group's numjobs" "$files" "8"

[ "$fails" -eq 0 ]
