#!/bin/bash
# The uncached=1 warning's figures, each named. 2000 random 4k pvsync2
# writes with RWF_DONTCACHE over an 8 MiB file already written on ext4
# (which keeps the pages of such writes, 6.18) left 2000 pages cached
# (fincore), all of what was written. The warning read "98% of the 8MiB
# region of u1 (ext4) that it wrote to (98% of it) is still in the page
# cache": two figures of 98%, one the share of the region cached, the
# other the share of it written, and neither said that all of what was
# written stayed. Now the second says what it is of, and what share of the
# writes that makes.
# Each claim is checked against fincore.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
command -v fincore >/dev/null || { echo "skip: no fincore"; exit 77; }
scratch_ext4 320m 512 "" ""
f="$mnt/u1"
head -c 8M /dev/urandom >"$f"
sync "$f" && dd if="$f" iflag=nocache count=0 status=none
"$bin" --name=u --filename="$f" --rw=randwrite --bs=4k --ioengine=pvsync2 --uncached=1 \
  --number_ios=2000 --size=8m --output-format=terse >out.txt 2>err.txt
rc=$?
if [ "$rc" -eq 2 ] && grep -q "RWF_DONTCACHE.*not supported" err.txt; then
  echo "skip: $(cat err.txt)"
  exit 77
fi
expect_eq "exit" "$rc" 0
sync "$f"
pages=$(fincore -n -o PAGES "$f" | tr -d ' ')
if [ "$pages" -lt 1024 ]; then # the kernel drops them now: nothing to say
  echo "note: the kernel kept $pages of 2000 pages"
  [ -s err.txt ] && fail "stderr: $(cat err.txt)"
else
  expect_eq "pages cached" "$pages" 2000
  grep -qF "iobench: warning: job 'u': uncached=1 at <cmdline>: 98% of the 8MiB region of $f (ext4) that it wrote to (its 7.8MiB of writes covered at most 98% of the region, so this is about 100% of what it wrote) is still in the page cache after the writeback, where RWF_DONTCACHE drops written pages: " err.txt ||
    fail "stderr: $(cat err.txt)"
fi
[ "$fails" -eq 0 ]
