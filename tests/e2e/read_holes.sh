#!/bin/bash
# A job that reads a region of holes (a sparse file, fallocated space, a
# trimmed range) reads zeros that no device I/O stands behind: the numbers
# are not the disk's. fio and iobench read a file as large as the job needs
# as it is, so `truncate -s` makes such a target. The report warns (header and
# JSON, not stderr); a written file, a write job and a file in memory do
# not get it.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/scratch_ext4.bash"
scratch_ext4 32m 512 "" ""
f="$mnt/f"
truncate -s 4m "$f"
want="warning: job 'r': $f: 100.0% of the region the job reads is holes (never written: sparse, fallocated or trimmed): reads there return zeros with no device I/O; write the file first (a file as large as the job needs is read as it is, as in fio)"

"$bin" --name=r --filename="$f" --size=4m --bs=4k --rw=randread --direct=1 >out.txt 2>err.txt
expect_eq "sparse: exit" "$?" 0
[ -s err.txt ] && fail "sparse: stderr: $(cat err.txt)"
grep -qxF "$want" out.txt || fail "sparse: no warning: $(grep warning out.txt)"
"$bin" --name=r --filename="$f" --size=4m --bs=4k --rw=read --output-format=json >out.json 2>err.txt
python3 -c 'import json,sys; w=json.load(open("out.json"))["iobench"]["context"]["warnings"]; sys.exit(not any("is holes" in x for x in w))' ||
  fail "sparse: no warning in the JSON"

# Half written: 50%, of the job's region only (offset= and size=).
dd if=/dev/zero of="$f" bs=1M count=2 conv=notrunc status=none
sync
"$bin" --name=r --filename="$f" --size=4m --bs=4k --rw=read >out.txt 2>err.txt
grep -qF "warning: job 'r': $f: 50.0% of the region the job reads is holes" out.txt ||
  fail "half written: $(grep warning out.txt)"
"$bin" --name=r --filename="$f" --size=2m --bs=4k --rw=read >out.txt 2>err.txt
grep -q "is holes" out.txt && fail "the written half alone: $(grep warning out.txt)"
"$bin" --name=r --filename="$f" --offset=2m --size=1m --bs=4k --rw=read >out.txt 2>err.txt
grep -qF "$f: 100.0% of the region the job reads is holes" out.txt ||
  fail "offset=2m size=1m: $(grep warning out.txt)"

# fallocate's unwritten space reads as zeros without I/O too.
if command -v fallocate >/dev/null; then
  rm -f "$mnt/fa"
  fallocate -l 2m "$mnt/fa"
  "$bin" --name=r --filename="$mnt/fa" --size=2m --bs=4k --rw=read >out.txt 2>err.txt
  grep -qF "$mnt/fa: 100.0% of the region the job reads is holes" out.txt ||
    fail "fallocated: $(grep warning out.txt)"
fi

# A write job, or a file the job lays out: no warning.
"$bin" --name=w --filename="$f" --size=4m --bs=4k --rw=write >out.txt 2>err.txt
grep -q "is holes" out.txt && fail "write job: $(grep warning out.txt)"
"$bin" --name=r --filename="$mnt/new" --size=1m --bs=4k --rw=read >out.txt 2>err.txt
grep -q "is holes" out.txt && fail "laid-out file: $(grep warning out.txt)"
# In memory the memory warning says more.
truncate -s 1m "$tmp/shm_sparse"
"$bin" --name=r --filename="$tmp/shm_sparse" --size=1m --bs=4k --rw=read --direct=0 >out.txt 2>err.txt
grep -q "is holes" out.txt && fail "tmpfs: $(grep warning out.txt)"
[ "$fails" -eq 0 ]
