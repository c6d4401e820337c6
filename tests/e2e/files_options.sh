#!/usr/bin/env bash
# ctest-cost: 30
# Round-5 file options against fio 3.33 on the same jobs, compared by what
# lands in the files (zero_buffers writes into files pre-filled with 'x'),
# file sizes, I/O counts and errors: offset_align, file_append,
# unlink_each_loop, create_only, create_fsync, allow_file_create, mem=,
# softrandommap, allrandrepeat and exec_prerun/exec_postrun.
set -u
bin=$1
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d /var/tmp/iobench_files.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
xfile() { python3 -c "open('$1','wb').write(b'x'*$2)"; }
# json FILE JOB-INDEX EXPR: a value from a JSON report (fio may print error
# lines before the JSON on stdout: they are skipped).
json() {
  python3 -c "import json; t=open('$1').read(); j=json.loads(t[t.index('{'):])['jobs'][$2]; print($3)"
}

# --- where the I/O lands: the same bytes change in both tools' files ---
same_bytes() {  # same_bytes NAME SIZE OPTIONS...
  local name=$1 size=$2
  shift 2
  xfile "$tmp/fio.$name" "$size"
  xfile "$tmp/iob.$name" "$size"
  fio --name=j --filename="$tmp/fio.$name" --rw=write --bs=4k --zero_buffers=1 "$@" \
    --output-format=terse >/dev/null 2>"$tmp/fio.err" || fail "$name: fio: $(cat "$tmp/fio.err")"
  "$bin" --name=j --filename="$tmp/iob.$name" --rw=write --bs=4k --zero_buffers=1 "$@" \
    --output-format=terse >/dev/null || fail "$name: iobench exit $?"
  cmp -s "$tmp/fio.$name" "$tmp/iob.$name" || fail "$name ($*): files differ from fio's: $(cmp "$tmp/fio.$name" "$tmp/iob.$name")"
}
same_bytes pct 102400 --size=16k --offset=10%
same_bytes pct_align 102400 --size=16k --offset=10% --offset_align=8k
same_bytes pct_align_odd 102400 --size=16k --offset=10% --offset_align=1000
same_bytes bytes_align 102400 --size=16k --offset=10000 --offset_align=8k
same_bytes inc_pct 102400 --size=16k --offset_increment=10% --numjobs=2
same_bytes append 102400 --size=16k --file_append=1 --offset=4k
[ "$(stat -c %s "$tmp/iob.append")" = 118784 ] || fail "file_append: size $(stat -c %s "$tmp/iob.append")"

# --- unlink_each_loop: a writer's file is recreated each loop ---
for t in fio iob; do
  xfile "$tmp/$t.uel" 1048576
  if [ $t = fio ]; then cmd=fio; else cmd=$bin; fi
  $cmd --name=u --filename="$tmp/$t.uel" --rw=write --bs=4k --size=16k --loops=3 \
    --unlink_each_loop=1 --output-format=json >"$tmp/$t.uel.json" 2>/dev/null || fail "uel $t"
done
[ "$(stat -c %s "$tmp/fio.uel")" = "$(stat -c %s "$tmp/iob.uel")" ] ||
  fail "unlink_each_loop: fio left $(stat -c %s "$tmp/fio.uel") bytes, iobench $(stat -c %s "$tmp/iob.uel")"
[ "$(json "$tmp/iob.uel.json" 0 "j['write']['total_ios']")" = "$(json "$tmp/fio.uel.json" 0 "j['write']['total_ios']")" ] ||
  fail "unlink_each_loop: write count differs"
# ...and a reader's file is gone on the second loop: ENOENT in both.
for t in fio iob; do
  xfile "$tmp/$t.uelr" 16384
  if [ $t = fio ]; then cmd=fio; else cmd=$bin; fi
  $cmd --name=u --filename="$tmp/$t.uelr" --rw=read --bs=4k --size=16k --loops=2 \
    --unlink_each_loop=1 --output-format=json >"$tmp/$t.uelr.json" 2>/dev/null
done
[ "$(json "$tmp/fio.uelr.json" 0 "j['error']")" = 2 ] || fail "fio unlink_each_loop read: not ENOENT"
[ "$(json "$tmp/iob.uelr.json" 0 "j['error']")" = 2 ] || fail "iobench unlink_each_loop read: not ENOENT"
[ "$(json "$tmp/iob.uelr.json" 0 "j['read']['total_ios']")" = 4 ] || fail "unlink_each_loop read: first loop not done"

# --- create_only: laid out, no I/O ---
for t in fio iob; do
  if [ $t = fio ]; then cmd=fio; else cmd=$bin; fi
  $cmd --name=c --filename="$tmp/$t.co" --rw=randread --bs=4k --size=64k --create_only=1 \
    --output-format=json >"$tmp/$t.co.json" 2>/dev/null || fail "create_only $t"
  [ "$(stat -c %s "$tmp/$t.co")" = 65536 ] || fail "create_only $t: not laid out"
  [ "$(json "$tmp/$t.co.json" 0 "j['read']['total_ios']")" = 0 ] || fail "create_only $t: I/O done"
done

# --- allow_file_create=0: a missing file is an error, and stays missing ---
fio --name=n --filename="$tmp/fio.nc" --rw=write --size=16k --allow_file_create=0 \
  --output-format=terse >/dev/null 2>&1
[ -e "$tmp/fio.nc" ] && fail "fio created the file"
out=$("$bin" --name=n --filename="$tmp/iob.nc" --rw=write --size=16k --allow_file_create=0 2>&1)
[ $? = 2 ] || fail "allow_file_create=0: exit code"
[ -e "$tmp/iob.nc" ] && fail "iobench created the file"
grep -qF "iob.nc does not exist, and allow_file_create=0 (<cmdline>) forbids creating it" <<<"$out" ||
  fail "allow_file_create=0 message: $out"

# --- create_fsync: the layout's fsync, counted with strace ---
if command -v strace >/dev/null; then
  syncs() {  # syncs CMD...: fsync calls of one run that lays a read file out
    rm -f "$tmp/cf"
    strace -f -qq -e trace=fsync -o "$tmp/strace.out" "$@" --name=f --filename="$tmp/cf" \
      --rw=read --bs=4k --size=64k --output-format=terse >/dev/null 2>&1
    grep -c 'fsync(' "$tmp/strace.out"
  }
  for v in 0 1; do
    a=$(syncs fio --create_fsync=$v)
    b=$(syncs "$bin" --create_fsync=$v)
    [ "$a" = "$b" ] || fail "create_fsync=$v: fio $a fsync calls, iobench $b"
  done
fi

# --- sync_file_range: the same calls as fio (sequential writes: the ranges are fio's) ---
if command -v strace >/dev/null; then
  sfr_calls() {  # sfr_calls CMD ENGINE SPEC: the sync_file_range calls, without the fd
    rm -f "$tmp/sfr"
    strace -f -qq -e trace=sync_file_range -o "$tmp/strace.out" "$1" --name=s --filename="$tmp/sfr" \
      --rw=write --bs=4k --size=64k --ioengine="$2" --iodepth=4 --sync_file_range="$3" \
      --output-format=terse >/dev/null 2>&1
    grep -o 'sync_file_range([0-9]*, .*' "$tmp/strace.out" | sed 's/^sync_file_range([0-9]*, //'
  }
  # libaio: fio records a write's range when it completes and syncs without
  # waiting for writes in flight, so its ranges depend on timing; iobench
  # waits for them (as for fsync) and syncs all that was written; fio skips
  # a sync whose range is still empty. Only the flags are compared there.
  for engine in psync libaio; do
    for spec in write:4 write wait_before,write,wait_after:5 wait_after:16; do
      a=$(sfr_calls fio $engine $spec)
      b=$(sfr_calls "$bin" $engine $spec)
      if [ $engine = libaio ]; then
        a=$(sed 's/^[0-9]*, [0-9]*, //' <<<"$a" | sort -u)
        b=$(sed 's/^[0-9]*, [0-9]*, //' <<<"$b" | sort -u)
      fi
      [ "$a" = "$b" ] || fail "sync_file_range=$spec ($engine): fio made
$a
iobench made
$b"
    done
  done
  [ "$(sfr_calls "$bin" psync write:4 | wc -l)" = 3 ] || fail "sync_file_range=write:4: not 3 calls"
fi

# --- mem=: every type runs a verified write; cudamalloc is refused ---
for m in malloc shm mmap mmapshared "mmap:$tmp/membuf" "mmapshared:$tmp/membuf"; do
  "$bin" --name=m --filename="$tmp/mem" --rw=write --bs=4k --size=256k --mem="$m" \
    --mem_align=512 --verify=crc32c --output-format=json >"$tmp/mem.json" || fail "mem=$m: exit $?"
  [ "$(json "$tmp/mem.json" 0 "j['read']['total_ios']")" = 64 ] || fail "mem=$m: verify reads"
  [ -e "$tmp/membuf" ] && fail "mem=$m: buffer file left behind"
done
out=$("$bin" --name=m --filename="$tmp/mem" --size=64k --mem=cudamalloc 2>&1) && fail "cudamalloc accepted"
grep -qF "mem=cudamalloc (GPU memory for fio's rdma engine) is not supported by iobench" <<<"$out" ||
  fail "cudamalloc message: $out"
free_huge=$(awk '/HugePages_Free/ {print $2}' /proc/meminfo)
if [ "${free_huge:-0}" = 0 ]; then
  for m in shmhuge mmaphuge; do
    out=$("$bin" --name=m --filename="$tmp/mem" --size=64k --mem=$m 2>&1) && fail "mem=$m ran without huge pages"
    grep -qF "mem=$m needs 1 free huge page of" <<<"$out" || fail "mem=$m message: $out"
    fio --name=m --filename="$tmp/mem" --size=64k --mem=$m --output-format=json >"$tmp/fio.huge.json" 2>/dev/null
    [ "$(json "$tmp/fio.huge.json" 0 "j['error']")" = 12 ] || fail "fio mem=$m did not fail with ENOMEM"
  done
fi
# direct=1 needs aligned buffers: mem_align=1 fails in both tools (EINVAL).
if "$bin" --name=d --filename="$tmp/direct" --rw=read --bs=4k --size=64k --direct=1 \
  --output-format=terse >/dev/null 2>&1; then
  fio --name=d --filename="$tmp/direct" --rw=read --bs=4k --size=64k --direct=1 --mem_align=1 \
    --output-format=json >"$tmp/fio.ma.json" 2>/dev/null
  "$bin" --name=d --filename="$tmp/direct" --rw=read --bs=4k --size=64k --direct=1 --mem_align=1 \
    --output-format=json >"$tmp/iob.ma.json" 2>/dev/null
  [ "$(json "$tmp/fio.ma.json" 0 "j['error']")" = 22 ] || fail "fio mem_align=1 direct=1: not EINVAL"
  [ "$(json "$tmp/iob.ma.json" 0 "j['error']")" = 22 ] || fail "iobench mem_align=1 direct=1: not EINVAL"
  "$bin" --name=d --filename="$tmp/direct" --rw=read --bs=4k --size=64k --direct=1 --mem_align=512 \
    --output-format=terse >/dev/null || fail "mem_align=512 direct=1 failed"
fi

# --- softrandommap: a 1 EiB random map does not fit; 1000 I/Os run without it ---
fio --name=s --ioengine=null --size=1024p --bs=4k --rw=randread --number_ios=1000 \
  --softrandommap=1 --output-format=json >"$tmp/fio.srm.json" 2>/dev/null
"$bin" --name=s --ioengine=null --size=1024p --bs=4k --rw=randread --number_ios=1000 \
  --random_generator=tausworthe64 --softrandommap=1 --output-format=json >"$tmp/iob.srm.json" ||
  fail "softrandommap=1: exit $?"
[ "$(json "$tmp/fio.srm.json" 0 "j['read']['total_ios']")" = 1000 ] || fail "fio softrandommap count"
[ "$(json "$tmp/iob.srm.json" 0 "j['read']['total_ios']")" = 1000 ] || fail "iobench softrandommap count"
# The note says what happened; it told the user to "set ... softrandommap=1", already set.
grep -q 'cannot be allocated; ran without a random map' "$tmp/iob.srm.json" || fail "softrandommap note"
grep -q 'softrandommap=1 to run' "$tmp/iob.srm.json" && fail "softrandommap note advises softrandommap=1"
"$bin" --name=s --ioengine=null --size=1024p --bs=4k --rw=randread --number_ios=1000 \
  --random_generator=tausworthe64 --output-format=terse >/dev/null 2>"$tmp/srm.err" && fail "a 32 TiB random map was allocated"
grep -q 'cannot be allocated: set norandommap=1, or softrandommap=1 to run without it' "$tmp/srm.err" ||
  fail "random map refusal: $(cat "$tmp/srm.err")"

# --- allrandrepeat: randrepeat=0 runs become repeatable (iobench only: the data differ from fio's) ---
rr() {
  rm -f "$tmp/rr"
  "$bin" --name=r --filename="$tmp/rr" --rw=randwrite --bs=4k --size=256k --bsrange=4k-16k \
    --randrepeat=0 "$@" --output-format=terse >/dev/null || fail "rr $*"
  md5sum <"$tmp/rr"
}
[ "$(rr --allrandrepeat=1)" = "$(rr --allrandrepeat=1)" ] || fail "allrandrepeat=1: runs differ"
[ "$(rr)" != "$(rr)" ] || fail "randrepeat=0: two runs wrote the same bytes"

# --- exec_prerun / exec_postrun: output in <job>.prerun.txt, a failed prerun stops the job ---
"$bin" --name=pj --ioengine=null --size=16k --exec_prerun="echo hello; echo err >&2" \
  --exec_postrun="echo bye" --output-format=json >"$tmp/exec.json" || fail "exec: exit $?"
[ "$(cat pj.prerun.txt)" = "$(printf 'hello\nerr')" ] || fail "prerun output: $(cat pj.prerun.txt)"
[ "$(cat pj.postrun.txt)" = bye ] || fail "postrun output: $(cat pj.postrun.txt)"
"$bin" --name=pf --ioengine=null --size=16k --exec_prerun="exit 1" --output-format=json \
  >"$tmp/pf.json" 2>/dev/null
[ $? = 1 ] || fail "a failed prerun: exit code"
[ "$(json "$tmp/pf.json" 0 "j['read']['total_ios']")" = 0 ] || fail "a failed prerun: I/O done"
# The normal report has no block for a job that did no I/O (as fio); the
# error is on stderr, naming the job.
"$bin" --name=pf --ioengine=null --size=16k --exec_prerun="exit 1" >"$tmp/pf.txt" 2>"$tmp/pf.err"
[ $? = 1 ] || fail "a failed prerun, normal output: exit code"
grep -q "^pf: (groupid" "$tmp/pf.txt" && fail "a failed prerun has a job block: $(cat "$tmp/pf.txt")"
grep -q "^pf: (g=0): rw=read" "$tmp/pf.txt" || fail "a failed prerun: header line missing"
[ "$(cat "$tmp/pf.err")" = "iobench: job 'pf': err=125 (exec_prerun 'exit 1' exited with status 1 (its output is in pf.prerun.txt); the job did no I/O)" ] ||
  fail "a failed prerun: stderr: $(cat "$tmp/pf.err")"
fio --name=pf --ioengine=null --size=16k --exec_prerun="exit 1" --output-format=json \
  >"$tmp/fio.pf.json" 2>/dev/null
[ "$(json "$tmp/fio.pf.json" 0 "j['read']['total_ios']")" = 0 ] || fail "fio: a failed prerun did I/O"
echo ok
