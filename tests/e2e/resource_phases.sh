#!/bin/bash
# The resource pre-check counts phase by phase (stonewall, job files run one
# after another), as the run does, and counts no files for the null engine:
# under `ulimit -n 256` fio 3.33 runs both jobs below; iobench refused them
# ("need 336 file descriptors"). Jobs that run together are still refused
# past the hard limit; below it iobench raises its soft limit.
# $1: iobench binary, $2: source dir.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
work=$(mktemp -d /tmp/iobench-resphases.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() {
  echo "FAIL $*"
  fails=$((fails + 1))
}
# ok NAME: says so when nothing failed since the last check.
seen=0
ok() {
  [ "$fails" -eq "$seen" ] && echo "ok   $*"
  seen=$fails
}

cat >phases.fio <<'JOB'
[global]
ioengine=psync
size=160k
nrfiles=40
bs=4k
numjobs=4
filesize=4k

[a]
[b]
stonewall
JOB
sed '/^stonewall$/d' phases.fio >together.fio

# A hard limit of 256 too: the run cannot raise it itself.
( ulimit -n 256 || exit 77
  "$bin" phases.fio --output-format=terse >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 77 ] && { echo "skip: cannot set ulimit -n 256"; exit 77; }
[ "$rc" -eq 0 ] || fail "stonewalled phases: exit $rc: $(head -c 300 err.txt)"
[ "$(grep -c . out.txt)" -eq 8 ] || fail "stonewalled phases: want 8 terse lines: $(head -c 300 out.txt)"
ok "stonewalled phases run under ulimit -n 256"

( ulimit -n 256; "$bin" together.fio >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 2 ] || fail "one phase: exit $rc, want 2"
grep -q "open files: the jobs need 336 file descriptors but RLIMIT_NOFILE is 256" err.txt ||
  fail "one phase: $(head -c 300 err.txt)"
ok "jobs that run together are refused"

# Only the soft limit low (`ulimit -Sn`; the usual 1024 is a soft limit):
# iobench raises it to the hard one itself, and the jobs run.
( ulimit -Sn 256 && ulimit -Hn 4096 || exit 77
  "$bin" together.fio --output-format=terse >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 0 ] || fail "soft limit 256, hard 4096: exit $rc: $(head -c 300 err.txt)"
[ -s err.txt ] && fail "soft limit raised: stderr: $(head -c 300 err.txt)"
ok "a soft limit below the need is raised to the hard one"

# Log files stay open for the run and are counted (20 clones x slat, clat,
# lat and bw logs = 80 files): under a hard limit of 64 the run is refused
# before any file is made; it used to fail mid-setup with "open log file
# ...: Too many open files" and leave partial logs behind.
mkdir logs
( ulimit -n 64; "$bin" --name=l --filename=shared --size=64k --numjobs=20 --rw=read \
  --write_lat_log=logs/l --write_bw_log=logs/b --output-format=terse >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 2 ] || fail "logs: exit $rc, want 2: $(head -c 300 err.txt)"
grep -q "open files: the jobs need 116 file descriptors" err.txt || fail "logs: $(head -c 300 err.txt)"
[ -z "$(ls logs)" ] || fail "logs: files made before the refusal: $(ls logs | head -3)"
( ulimit -Sn 64 && ulimit -Hn 4096 || exit 77
  "$bin" --name=l --filename=shared --size=64k --numjobs=20 --rw=read \
  --write_lat_log=logs/l --write_bw_log=logs/b --output-format=terse >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 0 ] || fail "logs, soft limit 64: exit $rc: $(head -c 300 err.txt)"
[ "$(ls logs | wc -l)" -eq 80 ] || fail "logs: want 80 files, got $(ls logs | wc -l)"
ok "log files are counted, and the soft limit raised for them"
rm -rf logs shared

( ulimit -n 256; "$bin" --name=n --ioengine=null --nrfiles=40 --numjobs=8 --filesize=4k \
  --output-format=terse >out.txt 2>err.txt )
rc=$?
[ "$rc" -eq 0 ] || fail "null engine: exit $rc: $(head -c 300 err.txt)"
ok "the null engine opens no files"

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
