#!/usr/bin/env bash
# ctest-cost: 10
# unlink_each_loop=1 with loops=2 on each engine that writes files, against
# fio 3.33: after loop 1 the file is removed and created again empty, and
# loop 2's writes must land in the new file at the offsets write_iolog
# records. Every block is written with one pattern, so the file must end up
# 64 KiB of it (a block written elsewhere leaves a hole of zeroes, or a
# short file; a write to the removed file leaves an empty one), and the
# write_iolog lists the blocks fio's does.
# - sync, vsync: the engine knew the old descriptor's position and skipped
#   the lseek on the new one (randseed=9: a 61440-byte file).
# - io_uring with registerfiles or sqthread_poll (which registers the
#   files): the registered file was the removed one (an empty file, err=0).
#   fio 3.33 does the same (it keeps its registration: no file is left), so
#   only its write_iolog is compared there.
# - mmap: the mapping was the removed file's; a new, empty file cannot be
#   mapped to be written, so the job is refused before the run (fio 3.33
#   dies of SIGBUS: not run).
# $1: iobench binary.
set -u
bin=$1
source "$(dirname "$0")/check.bash"
source "$(dirname "$0")/fio_side.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d /var/tmp/iobench_uel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

size=65536
python3 -c "open('ref','wb').write(bytes.fromhex('deadbeef') * ($size // 4))"
common=(--rw=randwrite --size=$size --bs=4k --loops=2 --unlink_each_loop=1
  --buffer_pattern=0xdeadbeef)

# usable ENGINE-OPTIONS...: iobench can run a one-loop job with them here.
usable() {
  "$bin" --name=p --filename="$tmp/probe" --rw=write --size=16k "$@" \
    --output-format=terse >/dev/null 2>&1
  local r=$?
  rm -f "$tmp/probe"
  return $r
}

# writes LOG: "offset length" of each write in a write_iolog (version 3:
# "time file write offset length"), sorted: the random order is not fio's
# (docs/patterns.md, Seeds), but each loop writes every block once in both.
writes() { awk '$3 == "write" { print $4, $5 }' "$1" | sort -n; }

# case_ NAME FIO(yes|no) ENGINE-OPTIONS...: both tools run the job; iobench's
# file must be the pattern, fio's too when FIO=yes, and both write_iologs
# must list the same writes.
case_() {
  local name=$1 fio_file=$2
  shift 2
  if ! usable "$@"; then
    echo "skip $name: not usable here"
    return
  fi
  "$bin" --name=x --filename="iob.$name" "${common[@]}" "$@" --write_iolog="iob.$name.log" \
    --output-format=terse >/dev/null 2>"iob.$name.err"
  expect_eq "$name: iobench exit" "$?" 0
  [ -s "iob.$name.err" ] && fail "$name: iobench stderr: $(cat "iob.$name.err")"
  expect_eq "$name: iobench file size" "$(stat -c %s "iob.$name" 2>&1)" $size
  cmp -s ref "iob.$name" || fail "$name: iobench's file is not the written blocks: $(cmp ref "iob.$name" 2>&1)"
  expect_eq "$name: iobench writes logged" "$(writes "iob.$name.log" | wc -l)" 32
  fio_side || return
  fio --name=x --filename="fio.$name" "${common[@]}" "$@" --write_iolog="fio.$name.log" \
    --output-format=terse >/dev/null 2>"fio.$name.err" || fail "$name: fio: $(cat "fio.$name.err")"
  if [ "$fio_file" = yes ]; then
    cmp -s ref "fio.$name" || fail "$name: fio's file is not the written blocks"
  fi
  [ "$(writes "iob.$name.log")" = "$(writes "fio.$name.log")" ] &&
    echo "ok   $name: write_iolog offsets equal fio's" ||
    fail "$name: write_iolog offsets differ from fio's"
}

for seed in 1 9 20; do
  case_ sync.$seed yes --ioengine=sync --randseed=$seed
  case_ vsync.$seed yes --ioengine=vsync --randseed=$seed
done
case_ psync yes --ioengine=psync --randseed=9
case_ pvsync2 yes --ioengine=pvsync2 --randseed=9
case_ libaio yes --ioengine=libaio --iodepth=4 --randseed=9
case_ posixaio yes --ioengine=posixaio --iodepth=4 --randseed=9
case_ io_uring yes --ioengine=io_uring --iodepth=4 --randseed=9
case_ io_uring.fixedbufs yes --ioengine=io_uring --iodepth=4 --fixedbufs=1 --randseed=9
case_ io_uring.registerfiles no --ioengine=io_uring --iodepth=4 --registerfiles=1 --randseed=9
case_ io_uring.sqthread_poll no --ioengine=io_uring --iodepth=4 --sqthread_poll=1 --randseed=9
case_ io_uring.all no --ioengine=io_uring --iodepth=4 --fixedbufs=1 --registerfiles=1 \
  --sqthread_poll=1 --randseed=9

# mmap: refused before the run, naming the option; no file is made.
out=$("$bin" --name=x --filename=iob.mmap "${common[@]}" --ioengine=mmap 2>&1 >/dev/null)
expect_eq "mmap: iobench exit" "$?" 2
case $out in
  *"mmap: unlink_each_loop=1 (<cmdline>) with loops=2 (<cmdline>): each loop's files are created again empty"*)
    echo "ok   mmap: refused" ;;
  *) fail "mmap: refusal: $out" ;;
esac
[ -e iob.mmap ] && fail "mmap: the refused job made its file"
# A one-loop mmap job with unlink_each_loop has nothing to replace: it runs.
"$bin" --name=x --filename=iob.mmap1 --rw=write --size=$size --bs=4k --loops=1 \
  --unlink_each_loop=1 --buffer_pattern=0xdeadbeef --ioengine=mmap --output-format=terse \
  >/dev/null 2>&1
expect_eq "mmap loops=1: exit" "$?" 0
cmp -s ref iob.mmap1 || fail "mmap loops=1: file is not the written blocks"

[ "$fails" -eq 0 ]
