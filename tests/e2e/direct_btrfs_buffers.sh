#!/bin/bash
# direct=1 on btrfs with what its alignment check did not look at: the I/O
# buffers' addresses (iomem_align=512) and bs_unaligned=1's byte-count
# lengths (bsrange=4k-12k, both ends multiples of 4096). btrfs serves such
# I/O through the page cache without an error: a direct 8 MiB read with
# iomem_align=512 left all of the file cached (256 KiB without it), and
# 200 bs_unaligned reads left 469 pages cached (3 without bs_unaligned),
# each run exiting 0 with no word
# (fio 3.33 says nothing either). iobench warns, on stderr and in the
# report, naming the option; buffers on the sector grid (iomem_align=4096)
# and a range without bs_unaligned run clean.
# Each claim is checked against fincore.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v fincore >/dev/null || { echo "skip: no fincore"; exit 77; }
scratch_btrfs 160m "-s 4096" "" dio
f="$mnt/dd"
head -c 8M /dev/urandom >"$f"
cached() { # pages of $f in the page cache
  fincore -n -o PAGES "$f" | tr -d ' '
}
drop() { sync "$f" && dd if="$f" iflag=nocache count=0 status=none; }
has() { grep -qF -- "$1" err.txt || fail "$2: stderr '$(cat err.txt)' lacks '$1'"; }
clean() { # NAME: nothing on stderr but the loop device's own warning, if any
  grep -v "loop/dio=0" err.txt | grep -q . && fail "$1: stderr: $(cat err.txt)"
}
direct_read() { # NAME ARGS...: a direct read job of $f; its stderr in err.txt
  local name=$1
  shift
  drop
  "$bin" --name=t --filename="$f" --size=8m --direct=1 --output-format=terse "$@" \
    >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
}
direct() { # NAME PAGES: no warning, fewer than PAGES pages cached
  clean "$1"
  [ "$(cached)" -lt "$2" ] || fail "$1: $(cached) pages cached"
}
buffered() { # NAME PAGES: more than PAGES pages cached
  [ "$(cached)" -gt "$2" ] ||
    fail "$1: $(cached) pages cached: btrfs no longer falls back to buffered?"
}
read_job() { direct_read "$1" --rw=read --bs=64k "${@:2}"; }
range_job() { direct_read "$1" --rw=randread --bsrange=4k-12k --number_ios=200 "${@:2}"; }

# Buffers on the grid: direct, next to nothing cached, no warning.
read_job "iomem_align=0"
direct "iomem_align=0" 256
read_job "iomem_align=4096" --iomem_align=4096
direct "iomem_align=4096" 256

# Buffers 512 bytes past a page boundary: every buffer (page-sized strides)
# is off btrfs's 4096-byte sectors, so every read is buffered.
read_job "iomem_align=512" --iomem_align=512
buffered "iomem_align=512" 1024
has "iobench: warning: job 't': direct=1 (<cmdline>) with iomem_align=512 at <cmdline> (I/O buffers that start 512 bytes past a page boundary): $f (btrfs) takes direct I/O from buffers at addresses aligned to 4096 (its sector size), and this is not: btrfs serves such I/O through the page cache, without an error, so the job measures buffered I/O; set iomem_align= to a multiple of 4096 (or 0), or direct=0" "iomem_align=512"
# fio's other name for it (read as iomem_align), and the report.
drop
"$bin" --name=t --filename="$f" --rw=read --size=8m --bs=64k --direct=1 --mem_align=1k \
  >out.txt 2>err.txt
expect_eq "mem_align=1k: exit" "$?" 0
has "with iomem_align=1k at <cmdline> (I/O buffers that start 1024 bytes past a page boundary)" \
  "mem_align=1k"
grep -qF "warning: job 't': direct=1 (<cmdline>) with iomem_align=1k" out.txt ||
  fail "mem_align=1k: the warning is not in the report"

# bs_unaligned=1: lengths of any byte count from 4096 to 12288. Reads, as
# btrfs drops the pages of a direct write it did buffered: fincore would
# not tell.
range_job "bsrange"
direct "bsrange" 64
range_job "bs_unaligned" --bs_unaligned=1
buffered "bs_unaligned" 64
has "iobench: warning: job 't': direct=1 (<cmdline>) with a block size of any byte count from 4096 to 12288 (bs_unaligned=1 at <cmdline>; read, bsrange=4k-12k at <cmdline>): $f (btrfs) takes direct I/O in multiples of 4096 bytes at offsets aligned to 4096 (its sector size), and this is not: btrfs serves such I/O through the page cache, without an error, so the job measures buffered I/O; set bs_unaligned=0, or one block size (bs) that is a multiple of 4096, or direct=0" "bs_unaligned"
# Writes too (the command QA ran).
rm -f "$mnt/w"
"$bin" --name=t --filename="$mnt/w" --rw=randwrite --size=8m --bsrange=4k-12k --bs_unaligned=1 \
  --direct=1 --number_ios=200 --output-format=terse >out.txt 2>err.txt
expect_eq "bs_unaligned writes: exit" "$?" 0
has "with a block size of any byte count from 4096 to 12288 (bs_unaligned=1 at <cmdline>; write," \
  "bs_unaligned writes"
[ "$fails" -eq 0 ]
