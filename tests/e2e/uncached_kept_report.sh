#!/bin/bash
# The warning that uncached=1 (RWF_DONTCACHE) writes stayed in the page
# cache is about what was measured, so the report carries it, not stderr
# alone: a buffered uncached write over blocks already written on ext4
# (6.18 keeps all 2048 pages of 8 MiB) printed it on stderr, while the JSON
# (iobench.context.warnings, the jobs' notes), the normal report and a
# --sweep table said nothing, and a pasted result read as uncached I/O.
# With more files than the check looks at (numjobs=20, a file each; it
# looks at 16) it says one warning for the job, how many of the files
# looked at kept their pages, and, as a note, that 16 of 20 were looked at.
# Each claim is checked against fincore. Needs /var/tmp on ext4.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v fincore >/dev/null || { echo "skip: no fincore"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-uncached.XXXXXX) || exit 1
trap 'cd /; rm -rf "$tmp" "$work"' EXIT
[ "$(stat -f -c %T "$work")" = ext2/ext3 ] || { echo "skip: /var/tmp is not ext4"; exit 77; }
f=$work/u
cached() { fincore -n -o PAGES "$1" | tr -d ' '; }
run() { # ARGS...: an 8 MiB uncached pvsync2 write over $f; stdout out.txt, stderr err.txt
  "$bin" --name=u --filename="$f" --size=8M --rw=write --bs=64k --ioengine=pvsync2 \
    --uncached=1 "$@" >out.txt 2>err.txt
}
run --output-format=terse
rc=$?
if [ "$rc" -ne 0 ] && grep -q "RWF_DONTCACHE.*not supported" err.txt; then
  echo "skip: $(cat err.txt)"
  exit 77
fi
expect_eq "first write: exit" "$rc" 0

# Over the blocks the first run wrote: the kernel keeps the pages.
run --output-format=json
expect_eq "json: exit" "$?" 0
pages=$(cached "$f")
if [ "$pages" -lt 1024 ]; then
  echo "skip: the kernel kept $pages of 2048 pages: nothing to warn about"
  exit 77
fi
grep -q "^iobench: warning: job 'u': uncached=1 at <cmdline>: 100% of the 8MiB region of $f (ext4) that it wrote to is still in the page cache after the writeback" err.txt ||
  fail "json: stderr lacks the warning: $(cat err.txt)"
w=$(grep "^iobench: warning: job 'u': uncached=1" err.txt | sed 's/^iobench: warning: //')
cp out.txt run.json
W="$w" python3 - <<'PY' || fail "json: iobench.context.warnings lacks the stderr warning"
import json, os, sys
d = json.load(open("run.json"))
sys.exit(0 if os.environ["W"] in d["iobench"]["context"]["warnings"] else 1)
PY

# The normal report: among the header's warnings.
run --output-format=normal
expect_eq "normal: exit" "$?" 0
expect_eq "normal: the warning in stdout" "$(grep -cxF "warning: $w" out.txt)" 1

# A sweep's table: its notes, for the point that used the flag.
run --sweep uncached=1,0 --output-format=table
expect_eq "sweep: exit" "$?" 0
grep -qxF "warning: ${w/<cmdline>/<sweep>}" out.txt || fail "sweep table: no note of the warning: $(cat out.txt)"

# numjobs=20, a file each, written twice: one warning, and the sample said.
"$bin" --name=n --directory="$work" --size=1M --rw=write --bs=64k --ioengine=pvsync2 \
  --uncached=1 --numjobs=20 --output-format=terse >/dev/null 2>&1
"$bin" --name=n --directory="$work" --size=1M --rw=write --bs=64k --ioengine=pvsync2 \
  --uncached=1 --numjobs=20 --output-format=json >run.json 2>err.txt
expect_eq "numjobs: exit" "$?" 0
kept=0
for i in $(seq 0 15); do [ "$(cached "$work/n.$i.0")" -ge 128 ] && kept=$((kept + 1)); done
if [ "$kept" -ge 2 ]; then
  expect_eq "numjobs: warnings on stderr" "$(grep -c "^iobench: warning: job 'n'" err.txt)" 1
  grep -qF "that it wrote to, and most of what it wrote to $((kept - 1)) more of its files (16 looked at), are still in the page cache" err.txt ||
    fail "numjobs: the warning does not count the $kept files that kept their pages: $(cat err.txt)"
fi
grep -q "note" err.txt && fail "numjobs: a note on stderr: $(cat err.txt)"
python3 - <<'PY' || fail "numjobs: no note that 16 of the 20 files were looked at"
import json, sys
d = json.load(open("run.json"))
want = ("job 'n': note: uncached=1 at <cmdline>: what stays in the page cache after the "
        "writeback was looked at in 16 of the 20 files the phase wrote with the flag "
        "(at most 16 are)")
sys.exit(0 if want in d["iobench"]["context"]["warnings"] else 1)
PY
[ "$fails" -eq 0 ]
