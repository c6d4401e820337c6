#!/bin/bash
# Trims of a file smaller than its file system's blocks. A trim of a file
# is a hole punch (fallocate PUNCH_HOLE), which frees only the blocks wholly
# inside it and writes zeros over the parts of blocks it covers: rw=trim
# bs=512 over a written 1 MiB file on ext4 with 1 KiB blocks, xfs and btrfs
# (4 KiB) reported 1 MiB trimmed with exit 0, while stat's block count did
# not move (xfs took 3.6 s zeroing). iobench warns, on stderr and in the
# report, naming the trim bs and the file system's block size (statfs
# f_bsize), with or without direct=1; trims of whole blocks free them and
# get no warning.
# A trim-only job does not use the page cache: its target line had
# page_cache=0.0% (and JSON page_cache_percent 0.0); it has none now, as a
# direct job (page_cache_percent -1).
# Each claim is checked against stat's block count.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 320m 512 "-b 1024" ""
has() { grep -qF -- "$1" err.txt || fail "$2: stderr '$(cat err.txt)' lacks '$1'"; }
blocks() { sync "$1" && stat -c %b "$1"; }
fill() { # FILE SIZE: a file written in full
  rm -f "$1"
  head -c "$2" /dev/urandom >"$1"
}
trim() { # NAME FILE SIZE ARGS...: a trim job over FILE; its stderr in err.txt
  local name=$1 file=$2 size=$3
  shift 3
  "$bin" --name=t --filename="$file" --rw=trim --size="$size" "$@" >out.txt 2>err.txt
  expect_eq "$name: exit" "$?" 0
}
check_fs() { # FS BLOCK SIZE: on the file system mounted on $mnt
  local fs=$1 block=$2 size=$3 f="$mnt/f" before after
  fill "$f" "$size"
  before=$(blocks "$f")
  trim "$fs bs=512" "$f" "$size" --bs=512 --direct=1
  after=$(blocks "$f")
  expect_eq "$fs bs=512: blocks freed" "$((before - after))" 0
  has "iobench: warning: job 't': trims with bs=512 (trim, at <cmdline>) on $f ($fs): a trim of a file punches a hole (fallocate PUNCH_HOLE), which frees only the blocks wholly inside it, here of $block bytes (statfs f_bsize), and writes zeros over the parts of blocks it covers, so these trims free nothing though the report counts every byte as trimmed; set the block sizes (bs, bsrange, bssplit) to multiples of $block" "$fs bs=512"
  grep -qF "warning: job 't': trims with bs=512" out.txt ||
    fail "$fs bs=512: the warning is not in the report"
  # Whole blocks: freed, nothing said.
  fill "$f" "$size"
  before=$(blocks "$f")
  trim "$fs bs=$block" "$f" "$size" --bs="$block"
  after=$(blocks "$f")
  [ "$((before - after))" -ge "$((size / 512))" ] ||
    fail "$fs bs=$block: $((before - after)) of $((size / 512)) sectors freed"
  [ -s err.txt ] && fail "$fs bs=$block: stderr: $(cat err.txt)"
  # Buffered and trim-only: no page_cache= (it read 0.0%).
  grep -q "^target $f: " out.txt || fail "$fs: no target line: $(cat out.txt)"
  grep "^target $f: " out.txt | grep -q "page_cache=" &&
    fail "$fs: trim-only job with a page_cache figure: $(grep "^target " out.txt)"
}

check_fs ext4 1024 $((1 << 20))
# Off the block grid: bs above a block frees some, and says so.
fill "$mnt/f" $((1 << 20))
trim "ext4 bs=1536" "$mnt/f" 1m --bs=1536
has "trims with bs=1536 (trim, at <cmdline>) on $mnt/f (ext4): " "ext4 bs=1536"
has "so these trims free less than they count" "ext4 bs=1536"
# An offset off the grid, in a job file.
cat >t.fio <<EOF
[t]
filename=$mnt/f
rw=randtrim
size=512k
offset=512
bs=1k
EOF
"$bin" t.fio >out.txt 2>err.txt
expect_eq "offset=512: exit" "$?" 0
has "trims with offset 512 (offset=512 at t.fio:5) on $mnt/f (ext4): " "offset=512"
has "; set offset= (and offset_increment=) to a multiple of 1024" "offset=512"
# JSON: no page cache figure for a trim-only job, as for a direct one.
"$bin" --name=t --filename="$mnt/f" --rw=randtrim --size=1m --bs=1k --output-format=json \
  >out.json 2>err.txt
expect_eq "json: exit" "$?" 0
python3 - "$mnt/f" <<'EOF' || fail "json: page_cache figures for a trim-only job"
import json, sys
t = json.load(open("out.json"))["iobench"]["context"]["targets"]
t = [x for x in t if x["path"] == sys.argv[1]][0]
sys.exit(0 if (t["page_cache_percent"], t["page_cache_region_bytes"],
               t["page_cache_examined_bytes"]) == (-1, 0, 0) else 1)
EOF
# A reader of the same file keeps its figure.
"$bin" --name=t --filename="$mnt/f" --rw=randtrim --size=1m --bs=1k \
  --name=r --filename="$mnt/f" --rw=read --size=1m >out.txt 2>err.txt
expect_eq "trim and read: exit" "$?" 0
grep "^target $mnt/f: " out.txt | grep -q "page_cache=" ||
  fail "trim and read: no page_cache figure: $(grep "^target " out.txt)"

umount "$mnt"
if command -v mkfs.xfs >/dev/null && mkfs.xfs -q -f "$loop" 2>/dev/null && mount "$loop" "$mnt"; then
  check_fs xfs 4096 $((256 << 10))
  umount "$mnt"
else
  echo "note: no xfs here"
fi
if command -v mkfs.btrfs >/dev/null && mkfs.btrfs -q -f -s 4096 "$loop" >/dev/null 2>&1 &&
  mount "$loop" "$mnt"; then
  check_fs btrfs 4096 $((256 << 10))
else
  echo "note: no btrfs here"
fi
[ "$fails" -eq 0 ]
