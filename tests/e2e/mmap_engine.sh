#!/bin/bash
# ioengine=mmap (fio's engine: memcpy through a shared mapping) on ext4 and
# tmpfs: exact I/O counts and bytes, a verify pass, fsync as msync, direct=1
# as msync + MADV_DONTNEED (the pages leave the cache), and the refusals
# (create_on_open, a block smaller than a page with direct=1). With fio
# installed, the counts must equal fio 3.33's for the same job.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary $bin"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-mmap.XXXXXX)
shm=$(mktemp -d /dev/shm/iobench-mmap.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# counts TOOL ARGS...: "error r_ios r_bytes w_ios w_bytes sync_ios" of the first job
counts() { job_counts "$work/err" "$@"; }

for dir in "$work" "$shm"; do
  f=$dir/data
  while read -r want args; do
    # shellcheck disable=SC2086
    got=$(counts "$bin" --name=m --ioengine=mmap --filename="$f" --size=1m --bs=4k $args)
    want=${want//,/ }
    if [ "$got" != "$want" ]; then
      fail "$dir $args: got '$got', want '$want'"
    elif [ -s "$work/err" ]; then
      fail "$dir $args: stderr: $(cat "$work/err")"
    else
      echo "ok   $dir $args: $got"
    fi
    if fio_side; then
      # shellcheck disable=SC2086
      fgot=$(counts fio --name=m --ioengine=mmap --filename="$f" --size=1m --bs=4k $args)
      [ "$fgot" = "$want" ] || fail "$dir $args: fio $(fio --version) gives '$fgot'"
    fi
  done <<'EOF'
0,0,0,256,1048576,0 --rw=write
0,256,1048576,0,0,0 --rw=randread
0,256,1048576,256,1048576,0 --rw=randwrite --verify=crc32c --verify_state_save=0
0,0,0,256,1048576,31 --rw=write --fsync=8
0,256,1048576,0,0,0 --rw=read --direct=1
EOF
done

# The written data is where it belongs, read back by another engine.
"$bin" --name=w --ioengine=mmap --filename="$work/v" --size=1m --bs=4k --rw=randwrite \
  --verify=md5 --do_verify=0 --verify_state_save=0 --output-format=terse >/dev/null 2>&1 ||
  fail "mmap write for psync verify: exit $?"
"$bin" --name=w --ioengine=psync --filename="$work/v" --size=1m --bs=4k --rw=randwrite \
  --verify=md5 --verify_only=1 --verify_state_save=0 --output-format=terse >/dev/null 2>"$work/err" ||
  fail "psync verify of mmap's writes: exit $?: $(cat "$work/err")"
echo "ok   psync verifies what mmap wrote"

# direct=1: every page read is dropped after its copy (fio's engine means to
# do this too, but its posix_madvise(DONTNEED) is a no-op in glibc: with fio
# all 1 MiB stays cached).
if command -v fincore >/dev/null; then
  cat "$work/v" >/dev/null
  "$bin" --name=d --ioengine=mmap --filename="$work/v" --size=1m --bs=4k --rw=read --direct=1 \
    --invalidate=0 --output-format=terse >/dev/null 2>&1 || fail "direct=1 read: exit $?"
  res=$(fincore -b -n -o RES "$work/v")
  [ "$res" -eq 0 ] && echo "ok   direct=1 leaves nothing cached" ||
    fail "direct=1: $res bytes still cached"
fi

# tmpfs: the page cache is the file, nothing can be dropped, so invalidate
# between passes and direct=1 leave the mapping alone. (Unmapping made every
# page of each later pass fault: fio's mmap-cxlmem.fio, a tmpfs workload, ran
# at 1/50 of fio's IOPS with minf = the I/O count.) Faults are counted, not
# timed: a 1 MiB file is 256 pages, and a pass that faults again would add
# 256 more for each of the passes the run made.
minf_ios() {
  python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(j["minf"], j["read"]["total_ios"])'
}
read -r minf ios < <("$bin" --name=t --ioengine=mmap --filename="$shm/pass" --size=1m --bs=4k \
  --rw=read --time_based --runtime=300ms --output-format=json 2>"$work/err" | minf_ios)
if [ -z "${ios:-}" ] || [ "$ios" -lt 1024 ]; then
  fail "tmpfs time_based: no result or under 4 passes ($ios I/Os): $(cat "$work/err")"
elif [ "$minf" -lt 512 ]; then
  echo "ok   tmpfs time_based: $minf page faults over $ios I/Os"
else
  fail "tmpfs time_based: $minf page faults over $ios I/Os: pages unmapped between passes"
fi
# direct=1 on tmpfs: no msync/MADV_DONTNEED/fadvise after each I/O (the
# 4 KiB madvise calls; glibc trims thread stacks with larger ones).
if command -v strace >/dev/null; then
  # LeakSanitizer cannot run under ptrace (the ASan stage runs this too).
  n=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -e trace=madvise "$bin" --name=t --ioengine=mmap --filename="$shm/pass" \
    --size=1m --bs=4k --rw=read --direct=1 --output-format=terse 2>&1 >/dev/null |
    grep -c ", 4096, MADV_DONTNEED")
  [ "$n" -eq 0 ] && echo "ok   tmpfs direct=1: no page unmapped" ||
    fail "tmpfs direct=1: $n pages unmapped after their I/O"
fi

# end_fsync=1: the end sync goes through the engine, as fio's: msync(MS_SYNC)
# of the 1 MiB mapping, no fsync (iobench used to fsync the descriptor). The
# file exists: no layout, whose create_fsync is an fsync.
if command -v strace >/dev/null; then
  head -c 1M /dev/zero >"$work/es"
  calls=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -e trace=fsync,msync "$bin" --name=t --ioengine=mmap --filename="$work/es" \
    --size=1m --bs=4k --rw=write --end_fsync=1 --output-format=terse 2>&1 >/dev/null)
  nm=$(grep -c "msync(.*, 1048576, MS_SYNC) = 0" <<<"$calls")
  nf=$(grep -c "fsync(" <<<"$calls")
  [ "$nm" -eq 1 ] && [ "$nf" -eq 0 ] && echo "ok   end_fsync: msync of the mapping" ||
    fail "end_fsync: $nm msync(MS_SYNC) of the mapping, $nf fsync: $calls"
fi

# Refusals, before anything runs, naming why.
out=$("$bin" --name=c --ioengine=mmap --filename="$work/new" --size=1m --rw=write \
  --create_on_open=1 2>&1)
[ $? -eq 2 ] && grep -q "mmap: create_on_open=1 (<cmdline>)" <<<"$out" && [ ! -e "$work/new" ] &&
  echo "ok   create_on_open refused" || fail "create_on_open: $out"
out=$("$bin" --name=c --ioengine=mmap --filename="$work/v" --size=1m --bs=512 --direct=1 \
  --parse-only 2>&1)
[ $? -eq 2 ] && grep -q "mmap: direct=1 (<cmdline>) needs a block size that is a multiple of the page size.*the smallest here is 512 (<cmdline>)" <<<"$out" &&
  echo "ok   bs=512 direct=1 refused" || fail "bs=512 direct=1: $out"
# In a job file the message names the option that asks for page-wise syncs, and both lines.
printf '[c]\nioengine=mmap\nfilename=%s\nsize=1m\nrw=write\nbs=1k\nfdatasync=4\n' "$work/v" >"$work/m.fio"
out=$("$bin" "$work/m.fio" --parse-only 2>&1)
[ $? -eq 2 ] && grep -q "mmap: fdatasync=4 ($work/m.fio:7) needs a block size .* the smallest here is 1024 ($work/m.fio:6)" <<<"$out" &&
  echo "ok   bs=1k fdatasync=4 refused" || fail "bs=1k fdatasync=4: $out"

echo "$fails failed"
[ "$fails" -eq 0 ]
