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
# Also loops with file_append=1, per engine, and the null engine (below).
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
global() {
  printf '[global]\ndirectory=%s\nfilename=f1\nioengine=psync\nrw=write\nsize=64k\n' "$PWD"
}

{ global; job j numjobs=2 file_append=1; } >clones.fio
check "numjobs=2 on a new file" "j.txt:32:0:124 131072" clones.fio

{ global; job a file_append=1; job b file_append=1; } >jobs.fio
check "two jobs on an 8 KiB file" "a.txt:16:8:68 b.txt:16:72:132 139264" jobs.fio 8192

# The same file spelled two ways (f1 and ./f1) is one file: b appends after
# a (it wrote over a's region when the sizes were kept by the path's text).
{
  printf '[global]\ndirectory=%s\nioengine=psync\nrw=write\nsize=64k\n' "$PWD"
  job a filename=f1 file_append=1
  job b filename=./f1 file_append=1
} >spelled.fio
check "the same file spelled two ways" "a.txt:16:8:68 b.txt:16:72:132 139264" spelled.fio 8192

{
  global
  job a file_append=1
  job b size=160k
  job c stonewall file_append=1 numjobs=2
  job d rw=read size=16k file_append=1
} >phases.fio
check "a later phase" "a.txt:16:8:68 b.txt:40:0:156 c.txt:32:160:284 d.txt:4:288:300 311296" \
  phases.fio 8192

# Loops that fio 3.33 runs as one walk with a sync engine (docs/patterns.md,
# "Loops that are one pass"): with file_append=1 too the walk goes on to size
# x loops bytes in the appended region (iobench made one pass of size bytes);
# a queueing engine (libaio) makes one pass, its later loops finding the
# region used up. count TOOL ENGINE ARGS...: the I/Os, how many are outside
# [$from, $to) KiB (of the file: random offsets differ), the files' bytes.
count() {
  local tool=$1 engine=$2
  shift 2
  rm -rf d l.log && mkdir d && head -c 65536 /dev/zero >d/f1
  "$(cmd "$tool")" --name=j --directory=d --ioengine="$engine" --output=/dev/null \
    --write_iolog=l.log --file_append=1 "$@" >/dev/null 2>err.txt || echo "$tool failed"
  awk -v from="$from" -v to="$to" '$3 == "write" || $3 == "read" { c++
      if ($4 / 1024 < from || $4 / 1024 >= to) out++ }
    END { printf "%d I/Os, %d outside [%dk,%dk), ", c, out, from, to }' l.log
  find d -type f -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }'
}
loops_check() {  # NAME WANT ENGINE ARGS...
  local name=$1 want=$2 t got
  shift 2
  for t in $(tools); do
    got=$(count "$t" "$@")
    expect_eq "$t $name" "$got" "$want"
  done
}
from=64 to=96
rand=(--filename=f1 --rw=randwrite --size=32k --loops=3 --norandommap=1)
loops_check "psync randwrite norandommap loops=3" "24 I/Os, 0 outside [64k,96k), 98304" psync \
  "${rand[@]}"
from=0 to=64
files=(--rw=randread --nrfiles=4 --filesize=64k --size=100k)
loops_check "psync randread 4 files loops=3" "64 I/Os, 0 outside [0k,64k), 327680" psync \
  "${files[@]}" --loops=3
loops_check "psync randread 4 files loops=1" "25 I/Os, 0 outside [0k,64k), 327680" psync \
  "${files[@]}"
# unlink_each_loop=1: the joined walk is the only loop, and ends with the
# file removed, in both tools (iobench made 2 writes and kept 72 KiB).
from=64 to=72
loops_check "psync unlink_each_loop=1 loops=2" "4 I/Os, 0 outside [64k,72k), 0" psync \
  --filename=f1 --rw=randwrite --norandommap=1 --size=8k --loops=2 --unlink_each_loop=1
from=64 to=96
if "$bin" --name=p --ioengine=libaio --filename=p --rw=write --size=4k --output=/dev/null \
  >/dev/null 2>&1; then
  loops_check "libaio randwrite norandommap loops=3" "8 I/Os, 0 outside [64k,96k), 98304" libaio \
    "${rand[@]}"
  from=0 to=64
  loops_check "libaio randread 4 files loops=3" "25 I/Os, 0 outside [0k,64k), 327680" libaio \
    "${files[@]}" --loops=3
else
  echo "skip: no libaio"
fi

# The null engine: its file is its share of size= (docs/running.md), and
# file_append=1 starts there, one pass whatever loops says, as fio 3.33
# (iobench ignored file_append there: loops=2 wrote 0..60k twice). On
# /dev/null (a device) fio ignores it, and so does iobench.
nullrun() {  # TOOL ARGS...: the write offsets (KiB) of one run
  local tool=$1
  shift
  rm -f n.log
  "$(cmd "$tool")" --name=j --ioengine=null --rw=write --file_append=1 --write_iolog=n.log \
    --output=/dev/null "$@" >/dev/null 2>err.txt || echo "$tool failed"
  awk '$3 == "write" { printf "%g ", $4 / 1024 }' n.log
}
null_check() {  # NAME WANT ARGS...
  local name=$1 want=$2 t
  shift 2
  for t in $(tools); do expect_eq "$t null $name" "$(nullrun "$t" "$@")" "$want"; done
}
seq_k() { seq -s ' ' "$1" 4 "$2" | sed 's/$/ /'; }  # FROM TO: FROM, FROM+4, ... TO (KiB)
null_check "size=64k loops=2" "$(seq_k 64 124)" --size=64k --loops=2
# Two files of 32 KiB each, written in turn.
null_check "nrfiles=2 size=64k" "$(for k in $(seq 32 4 60); do printf '%d %d ' "$k" "$k"; done)" \
  --size=64k --nrfiles=2
null_check "/dev/null loops=2" "$(seq_k 0 60)$(seq_k 0 60)" --filename=/dev/null --size=64k \
  --loops=2

[ "$fails" -eq 0 ] && echo "ok: file_append=1 appends after earlier jobs; its loops as fio's"
[ "$fails" -eq 0 ]
