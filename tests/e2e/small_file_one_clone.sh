#!/bin/bash
# A numjobs clone with no file that holds one block fails alone, as in fio
# 3.33: its clone is listed with no I/O, the job's other clones run, and
# the run exits 1 (fio: "blocksize is larger than data set range", the clone
# listed with err=0, exit 1; iobench gives it err=22, EINVAL, and says why
# on stderr). iobench used to refuse the whole run (exit 2, no report).
# When no clone holds a block the job is still refused (exit 2; fio exits
# with the number of clones it failed).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# clones TOOL OUT ARGS...: runs TOOL with JSON output into OUT (stderr to
# OUT.err) and prints the exit code, then "error:read_ios" per clone.
clones() {
  local tool=$1 out=$2
  shift 2
  "$tool" --output-format=json "$@" >"$out" 2>"$out.err"
  local rc=$?
  python3 - "$out" "$rc" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
jobs = json.loads(t[t.find("{"):])["jobs"] if "{" in t else []
print(sys.argv[2], *("%d:%d" % (j["error"], j["read"]["total_ios"]) for j in jobs))
PY
}

# Files of their own ($jobnum): clone 0's is 1000 bytes, under bs=4k; clones
# 1 and 2 read their 64 KiB (16 reads each, in both tools).
head -c 1000 /dev/urandom >f.0
head -c 65536 /dev/urandom >f.1
head -c 65536 /dev/urandom >f.2
for t in $(tools); do
  got=$(clones "$(cmd "$t")" own.$t.json --name=j --filename_format='f.$jobnum' --numjobs=3 \
    --rw=read --bs=4k --ioengine=psync)
  [ "$t" = fio ] && want="1 0:0 0:16 0:16" || want="1 22:0 0:16 0:16"
  expect_eq "$t: files of their own: exit, error:ios per clone" "$got" "$want"
done
grep -q "iobench: job 'j' #0: err=22 (filename_format=f.\$jobnum at <cmdline>: the region of f.0 is 1000 bytes (size not set: the file's size), smaller than the bs=4096" \
  own.iob.json.err || fail "files of their own: stderr: $(cat own.iob.json.err)"
# The job's notes go on the first clone that runs (they were clone 0's, and
# went with it).
"$bin" --name=j --filename_format='f.$jobnum' --numjobs=3 --rw=read --bs=4k --iodepth=4 \
  >own.txt 2>/dev/null
grep -q "note: iodepth=4 has no effect with psync" own.txt || fail "files of their own: no note"

# One file, shared: offset_increment=30k leaves clone 2 the last 4 KiB of
# 64 KiB, under bs=8k; clones 0 and 1 read 8 and 4 blocks, as in fio
# (which lists a job's clones in the order 0, 2, 1: patterns.md).
head -c 65536 /dev/urandom >shared
for t in $(tools); do
  got=$(clones "$(cmd "$t")" shared.$t.json --name=j --filename=shared --numjobs=3 \
    --offset_increment=30k --rw=read --bs=8k --ioengine=psync)
  [ "$t" = fio ] && want="1 0:8 0:0 0:4" || want="1 0:8 0:4 22:0"
  expect_eq "$t: offset_increment: exit, error:ios per clone" "$got" "$want"
done
grep -q "job 'j' #2: err=22 (filename=shared at <cmdline>: the region of shared is 4096 bytes (size not set: the file's size, from offset 61440 (2 x offset_increment=30k at <cmdline>))" \
  shared.iob.json.err || fail "offset_increment: stderr: $(cat shared.iob.json.err)"

# offset_increment=32k puts clone 2 at the end of the 64 KiB file, no size
# set (or size=25% of it): a region of nothing, failed alone the same way
# in both tools (fio: the same message; iobench refused the run with
# "offset 65536 ... is beyond the end of shared").
for size in "" --size=25%; do
  for t in $(tools); do
    got=$(clones "$(cmd "$t")" end.$t.json --name=j --filename=shared --numjobs=3 \
      --offset_increment=32k $size --rw=read --bs=4k --ioengine=psync)
    case $t$size in
      iob) want="1 0:16 0:8 22:0" ;;
      fio) want="1 0:16 0:0 0:8" ;;
      iob--size=25%) want="1 0:4 0:4 22:0" ;;
      fio--size=25%) want="1 0:4 0:0 0:4" ;;
    esac
    expect_eq "$t: offset past the end ${size:-(no size)}: exit, error:ios per clone" "$got" "$want"
  done
  grep -q "job 'j' #2: err=22 (filename=shared at <cmdline>: offset 65536 (2 x offset_increment=32k at <cmdline>) is beyond the end of shared (65536 bytes))" \
    end.iob.json.err || fail "offset past the end ${size}: stderr: $(cat end.iob.json.err)"
done

# filesize= and size= both set: offset_increment=24k puts clone 3 of 4 past
# the end of the 64 KiB file (fio reads nothing there, err=0 and exit 0;
# iobench refused the whole run, exit 2 with no report). Clone 2 reads the
# 16 KiB left of its region in both tools.
for t in $(tools); do
  rm -f fs
  got=$(clones "$(cmd "$t")" fs.$t.json --name=j --filename=fs --filesize=64k --size=32k \
    --numjobs=4 --offset_increment=24k --rw=read --bs=4k --ioengine=psync)
  [ "$t" = fio ] && want="0 0:8 0:0 0:4 0:8" || want="1 0:8 0:8 0:4 22:0"
  expect_eq "$t: filesize, offset past the end: exit, error:ios per clone" "$got" "$want"
done
grep -q "job 'j' #3: err=22 (filename=fs at <cmdline>: offset 73728 (3 x offset_increment=24k at <cmdline>) is beyond the end of fs (filesize=64k at <cmdline>, 65536 bytes))" \
  fs.iob.json.err || fail "filesize, offset past the end: stderr: $(cat fs.iob.json.err)"

# nrfiles=2 per clone: clone 1's two files both under a block (clone 0
# skips its small one and reads the other, as before), next to a job that
# runs: the JSON lists every clone in job order.
head -c 1000 /dev/urandom >d0.0
head -c 65536 /dev/urandom >d0.1
head -c 1000 /dev/urandom >d1.0
head -c 2000 /dev/urandom >d1.1
cat >two.fio <<'EOF'
[a]
nrfiles=2
filename_format=d$jobnum.$filenum
numjobs=2
rw=read
bs=4k
[b]
filename=b
size=32k
rw=read
bs=4k
EOF
for t in $(tools); do
  got=$(clones "$(cmd "$t")" two.$t.json two.fio)
  [ "$t" = fio ] && want="1 0:16 0:0 0:8" || want="1 0:16 22:0 0:8"
  expect_eq "$t: nrfiles, two jobs: exit, error:ios per clone" "$got" "$want"
done
grep -q "job 'a' #1: err=22 (filename_format=d\$jobnum.\$filenum at two.fio:3: the region of d1.0 is 1000 bytes" \
  two.iob.json.err || fail "nrfiles: stderr: $(cat two.iob.json.err)"

# Every clone under a block: the job is refused, naming the file and the
# option's place, and nothing is reported.
head -c 1000 /dev/urandom >f.1
head -c 1000 /dev/urandom >f.2
got=$(clones "$bin" all.json --name=j --filename_format='f.$jobnum' --numjobs=3 --rw=read \
  --bs=4k --ioengine=psync)
expect_eq "every clone small: exit, no job listed" "$got" "2"
grep -q "iobench: job 'j': the region of f.0 is 1000 bytes (size not set: the file's size), smaller than the bs=4096 (read, at <cmdline>)" \
  all.json.err || fail "every clone small: stderr: $(cat all.json.err)"
[ "$fails" -eq 0 ]
