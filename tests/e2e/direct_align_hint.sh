#!/bin/bash
# direct=1 on a regular file with an I/O the file system cannot take direct
# (ext4 on 4096-byte sectors, bs=512): the first I/O fails with EINVAL, the
# job's error, as in fio. fio's hint is only "try setting direct=0"; iobench
# names what the kernel asks of the file (statx STATX_DIOALIGN, Linux 6.1+)
# and which part of the I/O is off, for every engine.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 32m 4096 "-b 4096" ""
f="$mnt/f"
head -c 1M /dev/zero >"$f"
read -r major minor _ <<<"$(uname -r | tr '.-' '  ')"
statx=0
{ [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 1 ]; }; } && statx=1

# An aligned job runs clean: the hint is only ever on the error path.
"$bin" --name=x --filename="$f" --size=1m --bs=4k --direct=1 --rw=read --output-format=terse \
  >out.txt 2>err.txt
expect_eq "aligned: exit" "$?" 0
[ -s err.txt ] && fail "aligned: stderr: $(cat err.txt)"

run() {  # expected exit 1 with err=22; the stderr line in $msg
  "$bin" --name=x --filename="$f" --size=1m --direct=1 --output-format=json "$@" >out.json 2>err.txt
  expect_eq "$*: exit" "$?" 1
  msg=$(cat err.txt)
  grep -q "^iobench: job 'x': err=22 (.*Invalid argument; direct=1: " err.txt ||
    fail "$*: stderr '$msg'"
  python3 -c 'import json,sys; j=json.load(open("out.json"))["jobs"][0]; sys.exit(j["error"] != 22)' ||
    fail "$*: JSON error is not 22"
}
has() { grep -qF -- "$1" <<<"$msg" || fail "$2: '$msg' lacks '$1'"; }

engines=(psync pvsync2 libaio)
"$bin" --name=p --filename="$f" --size=4k --bs=4k --direct=1 --rw=read --ioengine=io_uring \
  --output-format=terse >/dev/null 2>&1 && engines+=(io_uring)
for e in "${engines[@]}"; do
  run --ioengine="$e" --iodepth=4 --bs=512 --rw=randread
  if [ $statx = 1 ]; then
    has "this file takes direct I/O in multiples of 4096 bytes at offsets aligned to 4096" "$e bs=512"
    has "(statx); this I/O's length 512 is not: set the block sizes (bs, bsrange, bssplit) to multiples of 4096, or direct=0" "$e bs=512"
  else
    has "try direct=0" "$e bs=512"
  fi
done

if [ $statx = 1 ]; then
  # A 4k I/O at an offset off the 4096 grid: the offset is named, and not
  # the length.
  run --bs=4k --offset=512 --rw=read
  has "this I/O's offset 512 is not: set offset=, blockalign=, any rw=...:N skip and zonerange= + zoneskip= (zonesize= without zonerange=) to multiples of 4096, or direct=0" "offset=512"
  # Both off, the offset not on the block size's grid: both named, with
  # both fixes. (On the grid, bs=1k offset=1k, the length alone is named:
  # blockalign follows bs.)
  run --bs=1k --offset=512 --rw=read
  has "this I/O's length 1024 and offset 512 are not: set the block sizes" "bs=1k offset=512"
  has "; set offset=, blockalign=" "bs=1k offset=512"
  run --bs=1k --offset=1k --rw=read
  has "this I/O's length 1024 is not: set the block sizes" "bs=1k offset=1k"
  # A buffer 8 bytes past an aligned address (fio's iomem_align): the
  # buffer is named, and the option that moves it.
  run --bs=4k --rw=read --mem=malloc --iomem_align=8
  has "this I/O's buffer is not: set iomem_align to a multiple of" "iomem_align=8"
  case "$msg" in *"block sizes"* | *offset=,*) fail "iomem_align=8: blames bs or offset: '$msg'" ;; esac
  # Writes get the same.
  run --bs=1k --rw=write
  has "this I/O's length 1024 is not" "write bs=1k"
fi
# Buffered I/O at 512 bytes is fine, and no direct=1 hint on other errors.
"$bin" --name=x --filename="$f" --size=1m --bs=512 --rw=randread --output-format=terse \
  >/dev/null 2>err.txt
expect_eq "buffered bs=512: exit" "$?" 0
[ -s err.txt ] && fail "buffered bs=512: stderr: $(cat err.txt)"
[ "$fails" -eq 0 ]
