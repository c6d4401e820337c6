#!/bin/bash
# nice, prio/prioclass that the job may not apply (a user without
# CAP_SYS_NICE lowering its niceness or asking for the real-time I/O class)
# fail that job alone, as fio 3.33 does (err=1, func=nice / ioprio_set): the
# other jobs run and are reported, exit 1. iobench refused the whole run
# (exit 2, no report; job k never ran) with a message that named neither
# the option's place nor the class and level asked for.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
[ "$(id -u)" -eq 0 ] || { echo "skip: runs iobench as nobody through runuser, which needs root"; exit 77; }
command -v runuser >/dev/null || { echo "skip: no runuser"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "skip: no user nobody"; exit 77; }
chmod 755 "$tmp"
# A copy nobody can reach: the build tree may be under a directory only
# root may enter (CI's clone is in a mode-700 mktemp directory).
cp "$bin" "$tmp/iobench" && chmod 755 "$tmp/iobench" || { echo "skip: cannot copy $bin"; exit 77; }
as_nobody() { runuser -u nobody -- "$tmp/iobench" "$@"; }
as_nobody --version >/dev/null 2>&1 || { echo "skip: nobody cannot run $tmp/iobench (a parent directory is not searchable)"; exit 77; }
check_json() {  # FILE PYTHON-ASSERTS WHAT
  python3 - "$1" <<PY || fail "$3: JSON: $(head -c 400 "$1")"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert list(jobs) == ["j", "k"], list(jobs)
assert jobs["k"]["read"]["io_bytes"] == 65536 and jobs["k"]["error"] == 0, jobs["k"]["read"]
$2
PY
}
fails_alone() {  # FILE OPTION STDERR-REGEX: job j with OPTION fails alone, job k runs
  printf '[j]\nioengine=null\nsize=64k\nbs=4k\n%s\n[k]\nioengine=null\nsize=64k\nbs=4k\n' "$2" >"$1"
  chmod 644 "$1"
  as_nobody "$1" --output-format=json >"$1.json" 2>"$1.err"
  expect_eq "$2: exit" "$?" 1
  check_json "$1.json" '
assert jobs["j"]["error"] == 1 and jobs["j"]["read"]["io_bytes"] == 0, jobs["j"]["error"]' "$2"
  grep -Eqx "$3" "$1.err" || fail "$2: stderr: $(cat "$1.err")"
}
# nice(1) warns and runs the command at its old niceness when it may not
# lower it: ask for the niceness it ran at.
if [ "$(runuser -u nobody -- nice -n -3 nice 2>/dev/null)" = "$(($(nice) - 3))" ]; then
  echo "skip nice: nobody may lower its niceness here"
else
  fails_alone n.fio nice=-3 \
    "iobench: job 'j': err=1 \(nice=-3 at n.fio:5: nice\(-3\), niceness -?[0-9]+ -> -?[0-9]+: Operation not permitted; a lower niceness needs CAP_SYS_NICE or an RLIMIT_NICE of [0-9]+ \((`ulimit -e [0-9]+` before the run|its hard limit is [0-9]+, which only root can raise)\)\)"
  # Interim reports (--status-interval) list j with its error from the
  # first one on, as fio's do (they had err=0 till the final report).
  as_nobody --output-format=json --status-interval=1 --name=j --ioengine=null --size=64k \
    --nice=-3 --name=k --ioengine=null --size=64m --time_based --runtime=2 --rate_iops=5000 >interim.json 2>/dev/null
  expect_interim "nice=-3, interim reports" interim.json "j:1 k:0"
fi
if command -v ionice >/dev/null && runuser -u nobody -- ionice -c1 true 2>/dev/null; then
  echo "skip prioclass: nobody may take the real-time I/O class here"
else
  fails_alone p.fio prioclass=1 \
    "iobench: job 'j': err=1 \(prioclass=1 at p.fio:5: ioprio_set\(class 1, level 0\): Operation not permitted; the real-time I/O priority class needs CAP_SYS_ADMIN or CAP_SYS_NICE; prioclass=2 \(best effort\) needs neither\)"
  # On the command line, prio and prioclass both named; the normal report
  # has k's block and its group line.
  as_nobody --name=j --ioengine=null --size=64k --prio=3 --prioclass=1 --name=k --ioengine=null \
    --size=64k >c.txt 2>c.err
  expect_eq "--prioclass=1 --prio=3: exit" "$?" 1
  grep -qx "iobench: job 'j': err=1 (prioclass=1 at <cmdline>, prio=3 at <cmdline>: ioprio_set(class 1, level 3): Operation not permitted; the real-time I/O priority class needs CAP_SYS_ADMIN or CAP_SYS_NICE; prioclass=2 (best effort) needs neither)" c.err ||
    fail "--prioclass=1 --prio=3: stderr: $(cat c.err)"
  grep -q "^k: (groupid=0, jobs=1): err= 0" c.txt || fail "normal report: no block for k: $(cat c.txt)"
  grep -q "READ: .*io=64.0KiB" c.txt || fail "normal report: no group line for k's 64 KiB"
  # numjobs=2: each clone fails alone, and the terse report lists both.
  as_nobody --output-format=terse --name=j --ioengine=null --size=64k --prioclass=1 --numjobs=2 \
    --name=k --ioengine=null --size=64k 2>/dev/null | cut -d';' -f3,5,6 >t.txt
  expect_eq "numjobs=2: name;err;KiB" "$(tr '\n' ' ' <t.txt)" "j;1;0 j;1;0 k;0;64 "
fi
[ "$fails" -eq 0 ]
