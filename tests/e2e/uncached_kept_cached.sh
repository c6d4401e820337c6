#!/bin/bash
# uncached=1 (RWF_DONTCACHE) writes the kernel accepts and keeps cached: ext4
# on a file without extents (mkfs.ext4 -O ^extent; ext2 and ext3 served by
# the ext4 code). An 8 MiB pvsync2 write left all 2048 pages cached (fincore),
# even after sync, with exit 0 and no word: the pre-run probe is a read,
# which the flag does drop. fio 3.33 says nothing either (and sends 0x40).
# After the phase, iobench waits for the writeback of the region and warns
# on stderr when most of it is still cached, naming uncached=1 and where it
# was set, the file, its file system, the share and the cause. ext4 with
# extents kept the pages of a write over blocks already written too (all 2048
# of a second 8 MiB randwrite), and is warned about then; where the flag
# works (ext4 with extents into new blocks, xfs) nothing stays and nothing
# is said.
# Each claim is checked against fincore.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v fincore >/dev/null || { echo "skip: no fincore"; exit 77; }
scratch_ext4 320m 512 "-O ^extent,^64bit" ""
cached() { # pages of $1 in the page cache
  fincore -n -o PAGES "$1" | tr -d ' '
}
has() { grep -qF -- "$1" err.txt || fail "$2: stderr '$(cat err.txt)' lacks '$1'"; }
write() { # write NAME FILE ARGS...: an uncached write job; stderr in err.txt
  local name=$1 f=$2
  shift 2
  rm -f "$f"
  "$bin" --name=u --filename="$f" --rw=write --size=8m --bs=64k --uncached=1 --fallocate=none \
    --output-format=terse "$@" >out.txt 2>err.txt
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -q "RWF_DONTCACHE.*not supported" err.txt; then
    echo "skip: $(cat err.txt)"
    exit 77
  fi
  expect_eq "$name: exit" "$rc" 0
}

engines=(pvsync2)
"$bin" --name=p --filename="$mnt/p" --size=4k --rw=read --ioengine=io_uring \
  --output-format=terse >/dev/null 2>&1 && engines+=(io_uring)
rm -f "$mnt/p"
for e in "${engines[@]}"; do
  write "$e no extents" "$mnt/u" --ioengine="$e"
  sync "$mnt/u"
  pages=$(cached "$mnt/u")
  if [ "$pages" -lt 1024 ]; then  # the kernel drops them now: nothing to say
    echo "note: $e: the kernel kept $pages of 2048 pages"
    [ -s err.txt ] && fail "$e no extents: stderr: $(cat err.txt)"
    continue
  fi
  has "iobench: warning: job 'u': uncached=1 at <cmdline>: 100% of the 8MiB region of $mnt/u (ext4) that it wrote to is still in the page cache after the writeback, where RWF_DONTCACHE drops written pages: the kernel accepted the flag and ignored it for these writes (the file has no extents, and the ext4 driver keeps the written pages of such a file), so they were ordinary cached writes and later reads may be cache hits; put the file on a file system that honours it for such writes (xfs), or drop uncached=1" "$e no extents"
done

# A job file: the line of uncached= is named. fallocate=native too.
cat >u.fio <<EOF
[u]
filename=$mnt/u
ioengine=pvsync2
rw=randwrite
size=8m
bs=64k
uncached=1
EOF
rm -f "$mnt/u"
"$bin" --output-format=terse u.fio >out.txt 2>err.txt
expect_eq "job file: exit" "$?" 0
[ "$(cached "$mnt/u")" -ge 1024 ] && has "job 'u': uncached=1 at u.fio:7: " "job file"

# Reads with the flag are dropped: nothing to say.
sync "$mnt/u" && dd if="$mnt/u" iflag=nocache count=0 status=none
"$bin" --name=r --filename="$mnt/u" --rw=read --size=8m --bs=64k --uncached=1 \
  --ioengine=pvsync2 --output-format=terse >out.txt 2>err.txt
expect_eq "reads: exit" "$?" 0
[ -s err.txt ] && fail "reads: stderr: $(cat err.txt)"
expect_eq "reads: pages cached" "$(cached "$mnt/u")" 0

# Where the flag works, no pages stay and nothing is said; where some stay,
# the warning says so (ext4 with extents kept all pages of writes over a
# file already written, 6.18; xfs none).
said() { # NAME FILE: after a run: a warning iff most pages stayed
  sync "$2"
  local pages
  pages=$(cached "$2")
  if [ "$pages" -ge 1024 ]; then
    has "% of the 8MiB region of $2 " "$1 ($pages pages cached)"
  else
    [ -s err.txt ] && fail "$1 ($pages pages cached): stderr: $(cat err.txt)"
  fi
  echo "$1: $pages pages cached"
}
overwrite() { # NAME: an uncached write over $mnt/u as the last run left it
  "$bin" --name=u --filename="$mnt/u" --rw=randwrite --size=8m --bs=64k --uncached=1 \
    --ioengine=pvsync2 --output-format=terse >out.txt 2>err.txt
  expect_eq "$1: exit" "$?" 0
  said "$1" "$mnt/u"
}
umount "$mnt"
mkfs.ext4 -q -F -E nodiscard "$loop" || { echo "skip: mkfs.ext4 failed"; exit 77; }
mount "$loop" "$mnt" || { echo "skip: cannot mount ext4 on $loop"; exit 77; }
write "ext4 with extents" "$mnt/u" --ioengine=pvsync2
[ -s err.txt ] && fail "ext4 with extents: stderr: $(cat err.txt)"
sync "$mnt/u"
expect_eq "ext4 with extents: pages cached" "$(cached "$mnt/u")" 0
overwrite "ext4 with extents, overwrite"
umount "$mnt"
if command -v mkfs.xfs >/dev/null && mkfs.xfs -q -f "$loop" 2>/dev/null && mount "$loop" "$mnt"; then
  write "xfs" "$mnt/u" --ioengine=pvsync2
  [ -s err.txt ] && fail "xfs: stderr: $(cat err.txt)"
  sync "$mnt/u"
  expect_eq "xfs: pages cached" "$(cached "$mnt/u")" 0
  overwrite "xfs, overwrite"
  expect_eq "xfs, overwrite: pages cached" "$(cached "$mnt/u")" 0
else
  echo "note: no xfs here"
fi
[ "$fails" -eq 0 ]
