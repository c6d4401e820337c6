#!/usr/bin/env bash
# A log iobench writes whose file is deleted during the run (here by a
# later stonewall phase's exec_prerun, so no timing is involved): the lines
# went to a file no name reaches, iobench exited 0 and said nothing (fio
# 3.33 at least says "fopen log: No such file or directory"). It names
# the option and the path on stderr, with how many lines are lost; so for
# --output, deleted after the header went in (fio loses it silently too).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

mkdir logs
cat >j.fio <<JOB
[a]
filename=a.dat
size=64k
write_bw_log=$tmp/logs/x
log_avg_msec=0

[b]
stonewall
filename=b.dat
size=64k
exec_prerun=rm -rf $tmp/logs
JOB
"$bin" j.fio >out 2>err
expect_eq "exit status" "$?" 0
expect_eq "stderr" "$(cat err)" \
  "iobench: warning: write_bw_log=$tmp/logs/x (j.fio:4): $tmp/logs/x_bw.1.log was deleted during the run; its 16 lines are lost"
# A log left in place says nothing.
sed -i '/exec_prerun/d' j.fio
mkdir -p logs
"$bin" j.fio >out 2>err
expect_eq "kept: exit status" "$?" 0
expect_eq "kept: stderr" "$(cat err)" ""
expect_eq "kept: lines" "$(wc -l <logs/x_bw.1.log)" 16
# The same for --output: its file is opened for the header at the start
# and deleted by phase b's hook; the report went nowhere, silently.
sed -i "s|^filename=b.dat|filename=b.dat\nexec_prerun=rm -f $tmp/rep.txt|" j.fio
"$bin" --output=rep.txt j.fio >out 2>err
expect_eq "--output deleted: exit status" "$?" 0
grep -qx "iobench: warning: --output=rep.txt was deleted during the run; its [0-9]* lines are lost" err ||
  fail "--output deleted: want a warning naming it, got '$(cat err)'"
expect_eq "--output deleted: stderr lines" "$(wc -l <err)" 1
# A report file that had no name from the start (a harness's unlinked
# temporary file as stdout, --output=/dev/stdout): nothing is lost, the
# caller reads it through its descriptor; no warning (there was one).
sed -i '/rm -f/d' j.fio
exec 3>tmpout
rm tmpout
"$bin" --output=/dev/stdout j.fio >&3 2>err
expect_eq "unlinked stdout: exit status" "$?" 0
expect_eq "unlinked stdout: stderr" "$(cat err)" ""
exec 3>&-
[ "$fails" -eq 0 ]
