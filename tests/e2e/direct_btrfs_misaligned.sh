#!/bin/bash
# direct=1 with I/O off btrfs's sector size (4 KiB): btrfs serves it through
# the page cache, without an error (fs/btrfs/direct-io.c falls back to
# buffered I/O), and reports no STATX_DIOALIGN (6.18). A bs=512 randread job
# exited 0 with no warning, its header saying block_size=512/512, and left
# 94 pages of the file cached: the numbers were the page cache's. fio 3.33
# says nothing either. iobench warns on stderr, naming direct=1, the option
# that is off, the alignment and the file system; an aligned job runs clean.
# Each claim is checked against fincore.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v fincore >/dev/null || { echo "skip: no fincore"; exit 77; }
scratch_btrfs 160m "-s 4096" ""
f="$mnt/dd"
head -c 4M /dev/urandom >"$f"
cached() { # pages of $f in the page cache
  fincore -n -o PAGES "$f" | tr -d ' '
}
drop() { sync "$f" && dd if="$f" iflag=nocache count=0 status=none; }
run() { # run NAME ARGS...: a direct randread of $f; its stderr in err.txt
  local name=$1
  shift
  drop
  "$bin" --name=d --filename="$f" --rw=randread --size=4m --direct=1 --number_ios=100 \
    --output-format=terse "$@" >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
}
has() { grep -qF -- "$1" err.txt || fail "$2: stderr '$(cat err.txt)' lacks '$1'"; }

# Aligned: direct, no warning, next to nothing cached (btrfs keeps a page or
# two of a file read with O_DIRECT; fio 3.33's leave one too).
run "bs=4k" --bs=4k
[ -s err.txt ] && fail "bs=4k: stderr: $(cat err.txt)"
[ "$(cached)" -lt 8 ] || fail "bs=4k: $(cached) pages cached"

# bs=512: served through the page cache, and said so.
run "bs=512" --bs=512
[ "$(cached)" -gt 50 ] || fail "bs=512: $(cached) pages cached: btrfs no longer falls back to buffered?"
has "iobench: warning: job 'd': direct=1 (<cmdline>) with bs=512 (read, at <cmdline>): $f (btrfs) takes direct I/O in multiples of 4096 bytes at offsets aligned to 4096 (its sector size), and this is not: btrfs serves such I/O through the page cache, without an error, so the job measures buffered I/O; set the block sizes (bs, bsrange, bssplit) to multiples of 4096, or direct=0" "bs=512"

# The report says it too (it used to be on stderr only, so pasted results
# did not): JSON's context warnings and the normal report's header.
drop
"$bin" --name=d --filename="$f" --rw=randread --size=4m --direct=1 --number_ios=100 --bs=512 \
  --output-format=json >out.json 2>err.txt
grep -qF "served through the page cache" out.json ||
  grep -qF "btrfs serves such I/O through the page cache" out.json ||
  fail "json: the warning is not in the report: $(grep -A3 '"warnings"' out.json | head -5)"
drop
"$bin" --name=d --filename="$f" --rw=randread --size=4m --direct=1 --number_ios=100 --bs=512 \
  >out.txt 2>err.txt
grep -qF "btrfs serves such I/O through the page cache" out.txt ||
  fail "normal: the warning is not in the report"

# A job file: the lines of direct= and bs= are named.
cat >j.fio <<EOF
[d]
filename=$f
rw=randwrite
size=4m
direct=1
number_ios=100
bsrange=1k-8k
EOF
drop
"$bin" --output-format=terse j.fio >out.txt 2>err.txt
expect_eq "job file: exit" "$?" 0
has "job 'd': direct=1 (j.fio:5) with block size 1024 (write, bsrange=1k-8k at j.fio:7): " "job file"

# An offset off the sector grid, block sizes on it.
run "offset=512" --bs=4k --offset=512 --rw=read
has "job 'd': direct=1 (<cmdline>) with offset 512" "offset=512"
has "; set offset= (and offset_increment=) to a multiple of 4096, or direct=0" "offset=512"

# blockalign off the grid.
run "blockalign=1k" --bs=4k --blockalign=1k
has "with blockalign=1k at <cmdline>:" "blockalign=1k"

# A file the run lays out is checked after the layout.
"$bin" --name=d --filename="$mnt/new" --rw=write --size=1m --bs=2k --direct=1 \
  --output-format=terse >out.txt 2>err.txt
expect_eq "new file: exit" "$?" 0
has "job 'd': direct=1 (<cmdline>) with bs=2048 (write, at <cmdline>): $mnt/new (btrfs)" "new file"

# Buffered I/O at 512 bytes: nothing to say.
drop
"$bin" --name=d --filename="$f" --rw=randread --size=4m --bs=512 --number_ios=100 \
  --output-format=terse >out.txt 2>err.txt
expect_eq "buffered: exit" "$?" 0
[ -s err.txt ] && fail "buffered: stderr: $(cat err.txt)"
[ "$fails" -eq 0 ]
