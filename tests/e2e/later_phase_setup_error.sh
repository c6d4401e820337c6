#!/bin/bash
# A stonewall phase that cannot start (here: O_DIRECT on ramfs, which
# refuses it) after an earlier phase ran: the earlier phase's results were
# thrown away with no report at all (and exit 2, "nothing ran", when the
# error was a refusal). As fio: the earlier jobs are reported, the failed
# job is listed with its error (err=22) and no I/O, the next phase runs, and
# the run exits 1; so too when the failed phase is the first. Needs root
# (mount).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to mount ramfs"; exit 77; }
mkdir ram
mount -t ramfs ramfs ram 2>/dev/null || { echo "skip: cannot mount ramfs"; exit 77; }
trap 'cd /; umount "$tmp/ram"; rm -rf "$tmp"' EXIT

cat >job.fio <<JOB
[a]
ioengine=psync
filename=$tmp/a.dat
rw=write
bs=4k
size=64k
[b]
stonewall
filename=$tmp/ram/b.dat
rw=write
bs=4k
size=64k
direct=1
[c]
stonewall
filename=$tmp/c.dat
rw=write
bs=4k
size=32k
JOB
"$bin" --output-format=json job.fio >out.json 2>err.txt
expect_eq "exit" "$?" 1
python3 - out.json <<'PY' || fail "JSON: the jobs' records"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert jobs["a"]["write"]["io_bytes"] == 65536 and jobs["a"]["error"] == 0, jobs["a"]["write"]
assert jobs["b"]["write"]["io_bytes"] == 0 and jobs["b"]["error"] == 22, jobs["b"]["error"]
assert "O_DIRECT" in jobs["b"]["iobench"].get("error_message", jobs["b"].get("error_message", "")), jobs["b"]
assert jobs["c"]["write"]["io_bytes"] == 32768 and jobs["c"]["error"] == 0, jobs["c"]["write"]
PY
grep -q "^iobench: job 'b': err=22 (open .*ram/b.dat with O_DIRECT (direct=1 at job.fio:13): Invalid argument: the ramfs file system likely does not support O_DIRECT; drop direct=1 or put the file on one that does)$" err.txt ||
  fail "stderr: $(cat err.txt)"
# The normal report has job a's block and group lines.
"$bin" job.fio >out.txt 2>/dev/null
grep -q "^a: (groupid=0, jobs=1): err= 0" out.txt || fail "normal: no block for a"
grep -q "WRITE: .*io=64.0KiB" out.txt || fail "normal: no group line for a"
# The first phase fails and a later one follows: as fio, the failed job is
# listed with err=22 and the later phase runs (iobench ended the whole run
# with no report, where fio ran job c).
cat >first.fio <<JOB
[b]
filename=$tmp/ram/b1.dat
rw=write
bs=4k
size=64k
direct=1
[c]
stonewall
filename=$tmp/c1.dat
rw=write
bs=4k
size=32k
JOB
"$bin" --output-format=json first.fio >out1.json 2>err1.txt
expect_eq "first of two phases fails: exit" "$?" 1
python3 - out1.json <<'PY' || fail "JSON, first phase failed: the jobs' records"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert jobs["b"]["write"]["io_bytes"] == 0 and jobs["b"]["error"] == 22, jobs["b"]
assert jobs["c"]["write"]["io_bytes"] == 32768 and jobs["c"]["error"] == 0, jobs["c"]["write"]
PY
grep -q "^iobench: job 'b': err=22 (open .*ram/b1.dat with O_DIRECT (direct=1 at first.fio:6): Invalid argument: the ramfs file system likely does not support O_DIRECT; drop direct=1 or put the file on one that does)$" \
  err1.txt || fail "stderr, first phase failed: $(cat err1.txt)"
# A failure in the only phase: the job is reported with its error and no
# I/O, as fio 3.33 reports it (JSON error 22, terse field 5); iobench printed
# the error alone, and a script reading the JSON found nothing.
"$bin" --name=b --filename="$tmp/ram/first.dat" --rw=write --size=64k --direct=1 \
  --output-format=json,terse >out2.txt 2>err2.txt
expect_eq "only phase fails: exit" "$?" 1
python3 - out2.txt <<'PY' || fail "only phase fails: report: $(head -c 300 out2.txt)"
import json, sys
text = open(sys.argv[1]).read()
doc = json.JSONDecoder().raw_decode(text[text.index("{"):])[0]
(j,) = doc["jobs"]
assert j["jobname"] == "b" and j["error"] == 22, (j["jobname"], j["error"])
assert j["write"]["io_bytes"] == 0 and j["write"]["total_ios"] == 0, j["write"]
terse = [l for l in text.splitlines() if l.startswith("3;")]
assert len(terse) == 1 and terse[0].split(";")[2:5] == ["b", "0", "22"], terse
PY
grep -qx "iobench: job 'b': err=22 (open .*ram/first.dat with O_DIRECT (direct=1 at <cmdline>): Invalid argument: the ramfs file system likely does not support O_DIRECT; drop direct=1 or put the file on one that does)" \
  err2.txt || fail "only phase fails: stderr: $(cat err2.txt)"
[ "$fails" -eq 0 ] && echo "ok: a later phase's setup error keeps the earlier results"
[ "$fails" -eq 0 ]
