#!/usr/bin/env bash
# file_append=1 with several jobs or clones on one file: each appends after
# the ones set up before it, as in fio 3.33, which sets its jobs up in job
# order, each laying its file out before the next looks at the file's size.
# numjobs=2 size=64k on a new file writes 0..64k and 64k..128k and leaves
# 128 KiB (iobench used to write 0..64k twice); two jobs on an 8 KiB file
# append at 8k and at 72k; a job in a later phase (stonewall) appends after
# what the earlier phases wrote, and a job without file_append=1 between
# them counts too (its region is laid out before the next job's set-up).
# Offsets and file sizes from write_iolog, in both tools when fio is there.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# run TOOL JOBFILE [EXISTING_BYTES]: runs the job file on a fresh f1 and
# prints each job's log as "name:count:first:last" (KiB) and the file's size.
run() {
  local tool=$1 jf=$2 l
  rm -f f1 log_*.txt
  [ -n "${3:-}" ] && head -c "$3" /dev/zero >f1
  "$(cmd "$tool")" --output=/dev/null "$jf" >/dev/null 2>err.txt || echo "$tool failed"
  for l in log_*.txt; do
    awk -v n="${l#log_}" '$3 == "write" || $3 == "read" { o = $4 / 1024; c++
        if (c == 1 || o < lo) lo = o; if (o > hi) hi = o }
      END { printf "%s:%d:%g:%g ", n, c, lo, hi }' "$l"
  done
  stat -c %s f1
}

job() {  # job NAME OPTIONS...: a section that logs to log_NAME.txt
  printf '[%s]\nwrite_iolog=%s/log_%s.txt\n' "$1" "$PWD" "$1"
  shift
  printf '%s\n' "$@"
}
global() { printf '[global]\ndirectory=%s\nfilename=f1\nioengine=psync\nrw=write\nsize=64k\n' "$PWD"; }

{ global; job j numjobs=2 file_append=1; } >clones.fio
check "numjobs=2 on a new file" "j.txt:32:0:124 131072" clones.fio

{ global; job a file_append=1; job b file_append=1; } >jobs.fio
check "two jobs on an 8 KiB file" "a.txt:16:8:68 b.txt:16:72:132 139264" jobs.fio 8192

{
  global
  job a file_append=1
  job b size=160k
  job c stonewall file_append=1 numjobs=2
  job d rw=read size=16k file_append=1
} >phases.fio
check "a later phase" "a.txt:16:8:68 b.txt:40:0:156 c.txt:32:160:284 d.txt:4:288:300 311296" \
  phases.fio 8192

[ "$fails" -eq 0 ] && echo "ok: file_append=1 jobs and clones append one after the other"
[ "$fails" -eq 0 ]
