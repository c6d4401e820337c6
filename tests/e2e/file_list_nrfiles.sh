#!/bin/bash
# nrfiles= set after filename= or opendir= listed files keeps the first
# nrfiles of them (and those listed after it), as fio 3.33 counts its
# nr_files: `opendir=od` then `nrfiles=1` uses the first file found, and
# nrfiles=2 the first two; written before opendir=, all of them. iobench
# used every file of an opendir= and of a filename= list. In a job file's
# section fio takes filename= after nrfiles=, so there nrfiles= never cuts
# the section's own filename= list; on the command line it does
# (--filename=a:b:c --nrfiles=2: a and b, 24 KiB each of --size=48k).
# The report says what was left out. Expected values: fio 3.33.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

per_file() {  # "name:bytes" per file written, in the order of the first writes
  awk '$3 == "write" { if (!($2 in b)) o[n++] = $2; b[$2] += $5 }
       END { for (i = 0; i < n; i++) printf "%s:%d ", o[i], b[o[i]] }' "$1"
}
run() {  # run NAME WANT ARGS...
  local name=$1 want=$2
  shift 2
  rm -f log.txt a b c d
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
grep -qF " files=(the files under opendir=od) (the first 1: nrfiles=1 at j1.fio:7) " po.txt ||
  fail "opendir, nrfiles=1: --parse-only: $(cat po.txt)"
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
[ "$fails" -eq 0 ]
