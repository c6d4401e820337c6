#!/bin/bash
# A job of a later phase whose files cannot be resolved (no size= for the
# null engine, a file to read that does not exist and no size) fails alone,
# as in fio 3.33 (err=22, "you need to specify size="): the other jobs of
# its phase run and are reported, the later phases too, and the run exits 1.
# iobench failed the whole phase and listed its other jobs as clean runs of
# 0 bytes (err=0, no block in the normal report, an empty "Run status group
# 1"). In the first phase the same job still refuses the run (exit 2).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
cat >p.fio <<'JOB'
[global]
ioengine=null
bs=4k
[a]
rw=read
size=1m
[c]
stonewall
rw=randread
size=512k
numjobs=2
[d]
rw=write
number_ios=100
[e]
stonewall
rw=read
size=64k
JOB
# terse: name:groupid:error:read KiB:write KiB, one record per line
"$bin" p.fio --output-format=terse >p.terse 2>p.err
expect_eq "null job without size in phase 2: exit" "$?" 1
expect_eq "null job without size in phase 2: records" \
  "$(awk -F';' '{print $3 ":" $4 ":" $5 ":" $6 ":" $47}' p.terse | paste -sd' ')" \
  "a:0:0:1024:0 c:1:0:512:0 c:1:0:512:0 d:1:22:0:0 e:2:0:64:0"
expect_eq "null job without size in phase 2: stderr" "$(cat p.err)" \
  "iobench: job 'd': err=22 (size is not set in [d] (p.fio:12) nor in [global], and the null engine has no file to size from (set size= or filesize=))"
"$bin" p.fio >p.txt 2>/dev/null
expect_eq "normal report: c's blocks" "$(grep -c "^c: (groupid=1, jobs=1): err= 0" p.txt)" 2
grep -A1 "^Run status group 1 " p.txt | grep -q "READ: .*io=1024KiB" ||
  fail "normal report: group 1's READ line: $(grep -A2 "^Run status group 1 " p.txt)"
# A psync job whose file is missing, without a size, next to a null job.
cat >q.fio <<JOB
[a]
ioengine=null
size=64k
[m]
stonewall
ioengine=psync
filename=$tmp/missing
rw=read
[s]
ioengine=null
size=1m
JOB
"$bin" q.fio --output-format=terse >q.terse 2>q.err
expect_eq "missing file in phase 2: exit" "$?" 1
expect_eq "missing file in phase 2: records" \
  "$(awk -F';' '{print $3 ":" $4 ":" $5 ":" $6}' q.terse | paste -sd' ')" "a:0:0:64 m:1:22:0 s:1:0:1024"
grep -q "^iobench: job 'm': err=22 (filename=$tmp/missing at q.fio:7: size is not set in \[m\] (q.fio:4) nor in \[global\], and $tmp/missing does not exist" q.err ||
  fail "missing file in phase 2: stderr: $(cat q.err)"
[ ! -e "$tmp/missing" ] || fail "missing file in phase 2: the file was created"
# The same job in the first phase refuses the run, before anything runs.
printf '[d]\nioengine=null\nnumber_ios=100\n[e]\nstonewall\nioengine=null\nsize=64k\n' >r.fio
"$bin" r.fio --output-format=terse >r.terse 2>r.err
expect_eq "null job without size in phase 1: exit" "$?" 2
expect_eq "null job without size in phase 1: no report" "$(cat r.terse)" ""
[ "$fails" -eq 0 ]
