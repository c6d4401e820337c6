#!/bin/bash
# Each filename= and opendir= adds to the job's file list, as in fio 3.33:
# [global] filename=g1 and [a] filename=f2 write 8 KiB to each of g1 and f2
# (fio's --showcmd: --filename=g1 --name=a --filename=f2); iobench wrote
# 16 KiB to f2 alone, silently. The list is built in fio's order: a job
# file's section takes its filename= after its other options (opendir=
# first), the command line as written. --parse-only shows the whole list,
# and the report says which options gave it. A name listed twice is used
# twice. A command-line global over a job file and a --sweep value replace
# the list (the command line wins). Expected values: fio 3.33.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# "name:bytes" per file written, in the order of each file's first write
# (round robin: the list's order).
per_file() {
  awk '$3 == "write" { if (!($2 in b)) o[n++] = $2; b[$2] += $5 }
       END { for (i = 0; i < n; i++) printf "%s:%d ", o[i], b[o[i]] }' "$1"
}
# run NAME WANT ARGS...: a run that writes log.txt; WANT is per_file of it.
run() {
  local name=$1 want=$2
  shift 2
  rm -f log.txt g1 f1 f2 f3 a
  "$bin" "$@" --write_iolog=log.txt >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
  expect_eq "$name: bytes per file" "$(per_file log.txt)" "$want"
  [ -s err.txt ] && fail "$name: stderr: $(cat err.txt)"
}
common="ioengine=psync\nrw=write\nbs=4k\n"

# --- [global] and the job's section
printf "[global]\n${common}size=16k\nfilename=g1\n[a]\nfilename=f2\n" >j1.fio
run "global+job" "g1:8192 f2:8192 " j1.fio
grep -qF "job 'a' uses the files of filename=g1 at j1.fio:6 and filename=f2 at j1.fio:8, in that order (2 files): fio adds each filename=" out.txt ||
  fail "global+job: the report does not say where the files came from: $(grep -i note out.txt)"
"$bin" --parse-only j1.fio >po.txt 2>&1
grep -q " files=g1:f2 " po.txt || fail "global+job: --parse-only: $(cat po.txt)"
expect_eq "global+job: --showcmd" "$("$bin" --showcmd j1.fio)" \
  "iobench --name=a --ioengine=psync --rw=write --bs=4k --size=16k --filename=g1 --filename=f2"

# --- two filename= in one section; a list and then one more
printf "[a]\n${common}size=24k\nfilename=f1:f2\nfilename=f3\n" >j2.fio
run "one section" "f1:8192 f2:8192 f3:8192 " j2.fio
# --- on the command line, also after the command-line globals
run "command line" "f1:8192 f2:8192 " --name=x --ioengine=psync --rw=write --size=16k \
  --filename=f1 --filename=f2
run "command-line global" "g1:8192 f2:8192 " --ioengine=psync --rw=write --size=16k \
  --filename=g1 --name=x --filename=f2

# --- a name listed twice is used twice (two regions of 8 KiB, at 0)
printf "[global]\n${common}size=16k\nfilename=a\n[j]\nfilename=a\n" >j3.fio
run "twice" "a:16384 " j3.fio
expect_eq "twice: the file's size" "$(stat -c %s a)" 8192
expect_eq "twice: added twice" "$(grep -c '^a add$' <(awk '{ print $2, $3 }' log.txt))" 2
"$bin" --parse-only j3.fio >po.txt 2>&1
grep -q " files=a:a " po.txt || fail "twice: --parse-only: $(cat po.txt)"

# --- opendir=: each one adds; [global] filename= comes first
mkdir -p od/sub
head -c 8192 /dev/zero >od/sub/b
printf "[global]\n${common}size=16k\nopendir=od\n[j]\nopendir=od/sub\n" >j4.fio
run "opendir twice" "od/sub/b:16384 " j4.fio
printf "[j]\n${common}size=16k\nopendir=od\nopendir=od/sub\n" >j5.fio
run "opendir twice, one section" "od/sub/b:16384 " j5.fio
printf "[global]\n${common}size=16k\nfilename=g1\n[j]\nopendir=od/sub\n" >j6.fio
run "global filename, then opendir" "g1:8192 od/sub/b:8192 " j6.fio
"$bin" --parse-only j6.fio >po.txt 2>&1
grep -qF " files=g1:(the files under opendir=od/sub) " po.txt ||
  fail "global filename, then opendir: --parse-only: $(cat po.txt)"
# In one section fio takes opendir= first, whatever the order written; on
# the command line, in the order written.
printf "[j]\n${common}size=16k\nfilename=g1\nopendir=od/sub\n" >j7.fio
run "one section: opendir first" "od/sub/b:8192 g1:8192 " j7.fio
run "command line: as written" "g1:8192 od/sub/b:8192 " --name=j --ioengine=psync --rw=write \
  --size=16k --filename=g1 --opendir=od/sub

# --- the command line wins over a job file, and a --sweep value over both
printf "[j]\n${common}size=16k\nfilename=f1\n" >j8.fio
run "command line over a job file" "f2:16384 " --filename=f2 j8.fio
"$bin" --parse-only --sweep filename=f2,f3 j8.fio >po.txt 2>&1
expect_eq "sweep: each point its own file" "$(grep -o 'files=[^ ]*' po.txt | tr '\n' ' ')" \
  "files=f2 files=f3 "

# --- the write safety checks see the whole list: a file of [global] on a
# pseudo file system is still refused when the job adds another.
printf "[global]\n${common}size=16\nbs=16\nfilename=/proc/version\n[w]\nfilename=f1\n" >j9.fio
"$bin" j9.fio >out.txt 2>err.txt
expect_eq "safety: exit" "$?" 2
grep -q "refusing to write to /proc/version .*filename=/proc/version at j9.fio:7" err.txt ||
  fail "safety: $(cat err.txt)"
[ -e f1 ] && fail "safety: f1 was written"
# --readonly: a file of [global] that a read would lay out is refused.
printf "[global]\nrw=read\nsize=16k\nfilename=missing\n[r]\nfilename=keep\n" >j10.fio
head -c 16384 /dev/zero >keep
"$bin" --readonly j10.fio >out.txt 2>err.txt
expect_eq "readonly: exit" "$?" 2
grep -q "missing" err.txt || fail "readonly: $(cat err.txt)"
[ -e missing ] && fail "readonly: missing was created"

# --- the blanks of each part are kept, the ends of the whole value trimmed
# (fio 3.33 creates a, " b " and c, and " lead:colon "): iobench wrote to
# b, a file the job did not name.
mkdir blanks && cd blanks || exit 1
"$bin" --name=j --rw=write --bs=4k --size=24k '--filename=a: b :c' >../out.txt 2>../err.txt
expect_eq "part blanks: exit" "$?" 0
expect_eq "part blanks: files" "$(LC_ALL=C ls -1 | sed 's/.*/<&>/' | tr '\n' ' ')" "< b > <a> <c> "
rm -f ./*
printf '[j]\nrw=write\nbs=4k\nsize=24k\nfilename= with space: lead\\:colon :trail \n' >../j11.fio
"$bin" ../j11.fio >../out.txt 2>../err.txt
expect_eq "part blanks in a job file: exit" "$?" 0
expect_eq "part blanks in a job file: files" "$(LC_ALL=C ls -1 | sed 's/.*/<&>/' | tr '\n' ' ')" \
  "< lead:colon > <trail> <with space> "
# fio trims the ends of the value as iobench does: nothing to warn about.
[ -s ../err.txt ] && fail "part blanks in a job file: stderr: $(cat ../err.txt)"
cd .. || exit 1
[ "$fails" -eq 0 ]
