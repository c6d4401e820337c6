#!/usr/bin/env bash
# pre_read=1 on a buffered ext4 file, seen through the page cache (fincore):
# with the file's cache dropped first (dd iflag=nocache), a job that then
# reads only one block (number_ios=1, fadvise_hint=random: no readahead)
# leaves its whole 8 MiB region cached, as fio 3.33 does (kernel readahead
# adds more past the region in both: 12 MiB cached here); without pre_read
# only that block is. pre_read=1 also keeps invalidate from dropping what it read.
# An exec_prerun runs before the pre_read (fio's order): a prerun that drops
# the cache leaves the region cached all the same.
# A loaded machine may reclaim a few pages (fadvise_hint.sh), so the bounds
# are 1 MiB wide.
# pre_read=1 with direct=1 is refused before the run (exit 2), naming both
# options: the O_DIRECT job bypasses the cache the pre-read fills (fio 3.33
# fails the job, err=5 func=pre_read; iobench used to run it silently).
# $1: iobench binary, $2: source dir.
E2E_FS=/var/tmp  # ext4 here: a tmpfs file is always cached
source "$2/tests/e2e/setup.bash"
head -c 1m /dev/zero >pd
"$bin" --name=pd --filename=pd --rw=read --size=1m --pre_read=1 --direct=1 \
  --output-format=terse >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_eq "pre_read=1 direct=1 exit" "$rc" 2
grep -q "job 'pd': pre_read=1 (<cmdline>) with direct=1 (<cmdline>): pre_read reads the files into the page cache, which O_DIRECT I/O bypasses" "$tmp/err" ||
  fail "pre_read=1 direct=1: stderr $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "pre_read=1 direct=1: a report: $(head -c 200 "$tmp/out")"
command -v fincore >/dev/null || { echo "SKIP: fincore (util-linux) not installed"; exit 77; }
f=$tmp/data
head -c 16m /dev/zero | tr '\0' x >"$f" && sync "$f" || { echo "cannot lay out $f"; exit 1; }
drop() { dd if="$f" iflag=nocache count=0 status=none; }
drop 2>/dev/null || { echo "SKIP: dd has no iflag=nocache"; exit 77; }
[ "$(fincore -b -n -o RES "$f")" -lt 1048576 ] || { echo "SKIP: the page cache of $f cannot be dropped"; exit 77; }

resident() {  # TOOL PRE_READ [OPTION]: bytes of $f cached after the job
  drop
  "$(cmd "$1")" --name=j --filename="$f" --offset=4m --size=8m --rw=read --number_ios=1 \
    --fadvise_hint=random --pre_read="$2" ${3:+"$3"} --output-format=json >/dev/null 2>"$tmp/err" ||
    fail "$1 pre_read=$2 $3: exit $? $(cat "$tmp/err")"
  [ -s "$tmp/err" ] && fail "$1 pre_read=$2: stderr $(cat "$tmp/err")"
  fincore -b -n -o RES "$f"
}
for t in $(tools); do
  r=$(resident "$t" 1)
  [ "$r" -ge $((7 << 20)) ] && [ "$r" -le $((16 << 20)) ] || fail "$t pre_read=1: $r bytes cached, want the 8 MiB region"
  # An exec_prerun that drops the cache runs before the pre_read, as fio's
  # (iobench read the files in first, so the prerun undid it: 4 KiB cached).
  r=$(resident "$t" 1 "--exec_prerun=dd if=$f iflag=nocache count=0 status=none")
  [ "$r" -ge $((7 << 20)) ] && [ "$r" -le $((16 << 20)) ] || fail "$t pre_read=1 after a prerun that drops the cache: $r bytes cached, want the 8 MiB region"
  r=$(resident "$t" 0)
  [ "$r" -lt $((1 << 20)) ] || fail "$t pre_read=0: $r bytes cached, want the one block"
done
[ "$fails" -eq 0 ] && echo "ok: pre_read caches the job's region"
[ "$fails" -eq 0 ]
