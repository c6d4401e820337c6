#!/bin/bash
# nrfiles= set after filename= or opendir= listed files keeps the first
# nrfiles of them (plus one for each file listed after it), as fio 3.33 counts its
# nr_files: `opendir=od` then `nrfiles=1` uses the first file found, and
# nrfiles=2 the first two; written before opendir=, all of them. iobench
# used every file of an opendir= and of a filename= list. In a job file's
# section fio takes filename= after nrfiles=, so there nrfiles= never cuts
# the section's own filename= list; on the command line it does
# (--filename=a:b:c --nrfiles=2: a and b, 24 KiB each of --size=48k).
# A command-line --nrfiles stands where fio applies it, before the job file
# (fio reads the command line first, as the job file's defaults), so it
# never cuts a job file's list: `--nrfiles=1 job.fio` with [global]
# filename=g1 and [j] filename=f2 wrote 32 KiB to g1 alone (fio: 16 KiB
# each) and said so in a false note. nrfiles=N makes the job use the first
# N + k files of the whole list, k those listed after it, not "the first N
# and those listed after it": filename=x, opendir=od and nrfiles=1 in one
# section use the first 2 files of od (fio lists filename= last), not x;
# --parse-only said x was used, and its JSON gave nrfiles 1. The report
# says what was left out.
# Expected values: fio 3.33.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

per_file() {  # "name:bytes" per file written, in the order of the first writes
  awk '$3 == "write" { if (!($2 in b)) o[n++] = $2; b[$2] += $5 }
       END { for (i = 0; i < n; i++) printf "%s:%d ", o[i], b[o[i]] }' "$1"
}
run() {  # run NAME WANT ARGS...
  local name=$1 want=$2
  shift 2
  rm -f log.txt a b c d g1 f2 p q r
  "$bin" "$@" --write_iolog=log.txt >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
  expect_eq "$name: bytes per file" "$(per_file log.txt)" "$want"
  [ -s err.txt ] && fail "$name: stderr: $(cat err.txt)"
}
common="ioengine=psync\nrw=write\nbs=4k\nsize=48k\n"

# --- opendir=. Which files come first is the order the directory lists
# them in, which tmpfs changes from one run to the next (fio's too): the
# runs are checked by how many files they used, and how much went to each.
mkdir -p od/sub
for f in od/x od/sub/z od/y; do head -c 8192 /dev/zero >"$f"; done
# dir_run NAME WANT ARGS...: WANT is per_file with each name of od/
# replaced by '?', e.g. "?:24576 ?:24576 ".
dir_run() {
  local name=$1 want=$2
  shift 2
  rm -f log.txt
  "$bin" "$@" --write_iolog=log.txt >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
  expect_eq "$name: bytes per file" "$(per_file log.txt | sed 's/od[^:]*:/?:/g')" "$want"
  [ -s err.txt ] && fail "$name: stderr: $(cat err.txt)"
}

printf "[j]\n${common}opendir=od\nnrfiles=1\n" >j1.fio
dir_run "opendir, nrfiles=1" "?:49152 " j1.fio
grep -qE "job 'j' uses the first 1 of the 3 files listed, not od/[a-z/]+, od/[a-z/]+: nrfiles=1 at j1.fio:7 came after" out.txt ||
  fail "opendir, nrfiles=1: the report does not say: $(grep -i note out.txt)"
"$bin" --parse-only j1.fio >po.txt 2>&1
grep -qF " files=(the files under opendir=od) (only the first 1 is used: nrfiles=1 at j1.fio:7) " po.txt ||
  fail "opendir, nrfiles=1: --parse-only: $(cat po.txt)"
# parse_only NAME JOB TEXT JSON: --parse-only prints TEXT, and its JSON
# gives nrfiles JSON ("value line set_by").
parse_only() {
  "$bin" --parse-only "$2" >po.txt 2>&1
  grep -qF "$3" po.txt || fail "$1: --parse-only: $(cat po.txt)"
  "$bin" --parse-only --output-format=json "$2" >po.json 2>&1
  expect_eq "$1: JSON nrfiles" "$(python3 -c 'import json,sys
o = json.load(open(sys.argv[1]))["jobs"][0]["options"]["nrfiles"]
print(o["value"], o.get("line"), o.get("set_by"))' po.json)" "$4"
}
# The first 1 + 1 files of the list od/?, od/?, od/?, x: two of od's.
printf "[j]\n${common}filename=x\nopendir=od\nnrfiles=1\n" >jx.fio
head -c 8192 /dev/zero >x
dir_run "filename=x, opendir=od, nrfiles=1" "?:24576 ?:24576 " jx.fio
grep -qE "job 'j' uses the first 2 of the 4 files listed, not od/[a-z/]+, x: nrfiles=1 at jx.fio:8" out.txt ||
  fail "filename=x, opendir, nrfiles=1: the report does not say: $(grep 'uses the first' out.txt)"
grep -qF "fio 3.33 then uses only that many, plus one for each file listed after it" out.txt ||
  fail "filename=x, opendir, nrfiles=1: the note does not say how fio counts: $(grep 'uses the first' out.txt)"
parse_only "filename=x, opendir, nrfiles=1" jx.fio \
  " files=(the files under opendir=od):x (only the first 2 are used: nrfiles=1 at jx.fio:8, plus 1 for the file listed after it) " \
  "2 8 nrfiles and the files listed after it"
# An opendir= after the nrfiles=: how many it adds is known once walked.
printf "[j]\n${common}opendir=od/sub\nnrfiles=1\nopendir=od\n" >jd.fio
parse_only "opendir after nrfiles" jd.fio \
  " (only the first 1+k are used, k the number of files listed after nrfiles=1 at jd.fio:7) " \
  "1 7 nrfiles and the files listed after it"
printf "[j]\n${common}opendir=od\nnrfiles=2\n" >j2.fio
dir_run "opendir, nrfiles=2" "?:24576 ?:24576 " j2.fio
printf "[j]\n${common}nrfiles=1\nopendir=od\n" >j3.fio
dir_run "nrfiles=1 before opendir" "?:16384 ?:16384 ?:16384 " j3.fio
grep -q "uses the first" out.txt && fail "nrfiles=1 before opendir: a note about a cut not made"
printf "[global]\n${common}opendir=od\n[j]\nnrfiles=1\n" >j4.fio
dir_run "[global] opendir, [j] nrfiles=1" "?:49152 " j4.fio
dir_run "command line opendir, nrfiles=1" "?:49152 " --name=j --ioengine=psync --rw=write \
  --size=48k --opendir=od --nrfiles=1

# --- filename=: the same count
cli=(--name=j --ioengine=psync --rw=write --size=48k)
run "command line: filename, nrfiles" "a:24576 b:24576 " "${cli[@]}" --filename=a:b:c --nrfiles=2
grep -qF "job 'j' uses the first 2 of the 3 files listed, not c: nrfiles=2 at <cmdline> came after" out.txt ||
  fail "command line: filename, nrfiles: the report does not say: $(grep -i note out.txt)"
"$bin" --parse-only "${cli[@]}" --filename=a:b:c --nrfiles=2 >po.txt 2>&1
grep -q " files=a:b " po.txt || fail "command line: filename, nrfiles: --parse-only: $(cat po.txt)"
run "command line: nrfiles, filename" "a:16384 b:16384 c:16384 " "${cli[@]}" --nrfiles=2 \
  --filename=a:b:c
run "command line: more files after nrfiles" "a:24576 b:24576 " "${cli[@]}" --filename=a:b \
  --nrfiles=1 --filename=d
run "command line: nrfiles above the count" "a:49152 " "${cli[@]}" --filename=a --nrfiles=3
printf "[j]\n${common}filename=a:b:c\nnrfiles=2\n" >j5.fio
run "one section: filename, nrfiles" "a:16384 b:16384 c:16384 " j5.fio
grep -q "uses the first" out.txt && fail "one section: a note about a cut that was not made"
printf "[global]\n${common}filename=a:b:c\n[j]\nnrfiles=2\n" >j6.fio
run "[global] filename, [j] nrfiles" "a:24576 b:24576 " j6.fio

# --- a command-line --nrfiles over a job file: it never cuts the job
# file's list, before or after the job file's name, but cuts a command-line
# --filename written before it, and a job file's nrfiles= cuts that too.
common="[global]\n${common}"
printf "${common}filename=g1\n[j]\nfilename=f2\n" >g.fio
run "--nrfiles=1 g.fio" "g1:24576 f2:24576 " --nrfiles=1 g.fio
grep -q "uses the first" out.txt && fail "--nrfiles=1 g.fio: a note about a cut not made"
run "g.fio --nrfiles=1" "g1:24576 f2:24576 " g.fio --nrfiles=1
"$bin" --parse-only --nrfiles=1 g.fio >po.txt 2>&1
grep -qF " files=g1:f2 " po.txt || fail "--nrfiles=1 g.fio: --parse-only: $(cat po.txt)"
"$bin" --parse-only --output-format=json --nrfiles=1 g.fio >po.json 2>&1
expect_eq "--nrfiles=1 g.fio: JSON" "$(python3 -c 'import json,sys
o = json.load(open(sys.argv[1]))["jobs"][0]["options"]
print(o["nrfiles"]["value"], o["nrfiles"].get("set_by"), o["filename"]["value"])' po.json)" \
  "2 filename g1:f2"
# On one command line an --nrfiles=1 before the list would not cut it
# either; it is left out.
"$bin" --showcmd --nrfiles=1 g.fio >cmd.txt 2>&1
grep -q -- "--filename=g1 --filename=f2$" cmd.txt || fail "--nrfiles=1 g.fio: --showcmd: $(cat cmd.txt)"
run "--showcmd of --nrfiles=1 g.fio" "g1:24576 f2:24576 " $(sed 's/^iobench //' cmd.txt)
printf "${common}[j]\nfilename=a:b:c\n" >abc.fio
run "--nrfiles=1, [j] filename=a:b:c" "a:16384 b:16384 c:16384 " --nrfiles=1 abc.fio
printf "${common}filename=a:b:c\n[j]\n" >gabc.fio
run "--nrfiles=1, [global] filename=a:b:c" "a:16384 b:16384 c:16384 " --nrfiles=1 gabc.fio
printf "${common}filename=a:b:c\n[j]\nnrfiles=2\n" >gabc2.fio
run "--nrfiles=1, [global] filename=a:b:c, [j] nrfiles=2" "a:24576 b:24576 " --nrfiles=1 gabc2.fio
printf "${common}[j]\n" >plain.fio
run "--filename=a:b:c --nrfiles=1 job" "a:49152 " --filename=a:b:c --nrfiles=1 plain.fio
printf "${common}[j]\nnrfiles=2\n" >n2.fio
run "--filename=a:b:c, [j] nrfiles=2" "a:24576 b:24576 " --filename=a:b:c n2.fio
run "--filename=a:b:c --nrfiles=1, [j] nrfiles=2" "a:24576 b:24576 " --filename=a:b:c \
  --nrfiles=1 n2.fio
# Without a list --nrfiles is the number of files the job makes, over the
# job file's nrfiles= (iobench's precedence), also in --showcmd.
printf "${common}[j]\nnrfiles=3\n" >n3.fio
rm -f j.0.*
"$bin" --nrfiles=2 n3.fio >/dev/null 2>err.txt || fail "--nrfiles=2 n3.fio: $(cat err.txt)"
expect_eq "--nrfiles=2 n3.fio: files made" "$(ls j.0.* | tr '\n' ' ')" "j.0.0 j.0.1 "
"$bin" --showcmd --nrfiles=2 n3.fio >cmd.txt 2>&1
grep -q -- "--size=48k --nrfiles=2$" cmd.txt || fail "--nrfiles=2 n3.fio: --showcmd: $(cat cmd.txt)"
[ "$fails" -eq 0 ]
