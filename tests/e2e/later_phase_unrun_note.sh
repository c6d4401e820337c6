#!/bin/bash
# A later phase that cannot start as a whole (here: a file the user may not
# read, EACCES, which refuses a first phase's run): its jobs are listed with
# no I/O and the error on the job it names. The phase's other jobs were
# records of error 0 and 0 bytes with no word, which a script reads as a
# clean run that did nothing; each now has a note that it did not run, and
# why. fio 3.33 runs the other jobs (docs/running.md says where iobench
# differs). Needs root and setpriv (to run as nobody).
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root to run as nobody"; exit 77; }
command -v setpriv >/dev/null || { echo "skip: needs setpriv"; exit 77; }
chmod 755 "$tmp"
head -c 64k /dev/zero >secret
chmod 600 secret
cat >job.fio <<JOB
[global]
ioengine=null
size=64k
[ok1]
[bad]
stonewall
ioengine=psync
filename=$tmp/secret
rw=read
[ok2]
[ok3]
stonewall
JOB
setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" --output-format=json job.fio \
  >out.json 2>err.txt
expect_eq "exit" "$?" 1
grep -q "^iobench: job 'bad': err=13 " err.txt || fail "stderr: $(cat err.txt)"
python3 - out.json <<'PY' || fail "JSON: the jobs' records"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
notes = lambda n: jobs[n].get("iobench", {}).get("notes", [])
unrun = lambda n: [x for x in notes(n) if x.startswith("did not run")]
assert jobs["bad"]["error"] == 13, jobs["bad"]["error"]
assert not unrun("bad"), notes("bad")
assert jobs["ok2"]["error"] == 0 and jobs["ok2"]["read"]["io_bytes"] == 0, jobs["ok2"]["read"]
assert len(unrun("ok2")) == 1, notes("ok2")
assert unrun("ok2")[0].startswith("did not run: its phase could not start (job 'bad': "), unrun("ok2")
assert "secret" in unrun("ok2")[0], unrun("ok2")
for n in ("ok1", "ok3"):
    assert jobs[n]["read"]["io_bytes"] == 65536 and not unrun(n), (n, notes(n))
PY
[ "$fails" -eq 0 ]
