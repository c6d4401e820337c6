#!/usr/bin/env bash
# A job named after a block device, with no filename=, runs on that device,
# as fio (add_job: the job's name is its file when it exists and is not a
# regular file; fio's examples/disk-zone-profile.fio is [/dev/sdb]). Root
# and a loop device over a file in a temp dir:
#  - [/dev/loopN] rw=write verify=crc32c: 16 writes and 16 verify reads on
#    the device (iobench used to fail: "device /dev/loopN.0.0 does not
#    exist", exit 2); the verify state is local-.dev.loopN-0-verify.state in
#    the current directory, as fio names it
#  - numjobs=2: both clones read the device (32 reads)
#  - disk-zone-profile.fio (scaled to the loop device) with its bare
#    write_bw_log: the log is loopN_bw.1.log in the current directory, not
#    /dev/loopN_bw.1.log as fio creates it, and the report says so
#  - nothing is created under /dev
# Checked against fio's counts on the same jobs when it is installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop device)"; exit 77; }
command -v losetup >/dev/null || { echo "SKIP: losetup not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
. "$src/tests/e2e/fio_side.bash"
. "$src/tests/e2e/check.bash"
work=$(mktemp -d /var/tmp/iobench-jobname-dev.XXXXXX)
loop=""
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  [ -n "$loop" ] && rm -f "$loop"_*.log "$loop".*.txt
  rm -rf "$work"
}
trap cleanup EXIT
truncate -s 8m "$work/img"
loop=$(losetup -f --show "$work/img" 2>/dev/null) || { loop=""; echo "SKIP: no loop device"; exit 77; }
base=${loop##*/}
cd "$work" || exit 1
# counts FILE: "error w_ios w_bytes r_ios r_bytes" summed over the JSON's jobs.
counts() {
  python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
jobs = json.JSONDecoder().raw_decode(t[t.find("{"):])[0]["jobs"]
print(max(j["error"] for j in jobs), sum(j["write"]["total_ios"] for j in jobs),
      sum(j["write"]["io_bytes"] for j in jobs), sum(j["read"]["total_ios"] for j in jobs),
      sum(j["read"]["io_bytes"] for j in jobs))
PY
}
dev_files() { ls -d "$loop"?* 2>/dev/null | grep -v "^$loop[p0-9]*$"; }

cat >write.fio <<EOF
[$loop]
rw=write
bs=64k
size=1m
verify=crc32c
EOF
cat >read2.fio <<EOF
[$loop]
rw=read
bs=64k
size=1m
numjobs=2
EOF
engine=psync
"$bin" --list-engines | grep -qE "^libaio +available" && engine=libaio
# fio's examples/disk-zone-profile.fio, zones scaled down to 8 MiB.
cat >zone.fio <<EOF
[global]
bs=64k
direct=1
rw=read
ioengine=$engine
iodepth=2
zonemode=strided
zonesize=256k
zoneskip=2m
write_bw_log

[$loop]
EOF

for t in $(tools); do
  rm -f ./*.state ./*.log
  "$(cmd "$t")" write.fio --output-format=json >"w.$t" 2>"w.$t.err"
  expect_eq "$t write exit" $? 0
  expect_eq "$t write counts" "$(counts "w.$t")" "0 16 1048576 16 1048576"
  [ -f "local-.dev.$base-0-verify.state" ] || fail "$t: no local-.dev.$base-0-verify.state: $(ls)"
  "$(cmd "$t")" read2.fio --output-format=json >"r.$t" 2>"r.$t.err"
  expect_eq "$t numjobs=2 exit" $? 0
  expect_eq "$t numjobs=2 counts" "$(counts "r.$t")" "0 0 0 32 2097152"
done
[ -z "$(dev_files)" ] || fail "files created under /dev: $(dev_files)"

rm -f ./*.log
"$bin" zone.fio >zone.out 2>zone.err
expect_eq "zone profile exit" $? 0
[ -s zone.err ] && fail "zone profile: stderr: $(head -2 zone.err)"
[ -s "${base}_bw.1.log" ] || fail "zone profile: no ${base}_bw.1.log in the current directory: $(ls)"
grep -q "note: logs named from the job name $loop are written in the current directory as ${base}_\*.log" zone.out ||
  fail "zone profile: no note about the log name"
[ -z "$(dev_files)" ] || fail "zone profile: files created under /dev: $(dev_files)"

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all ok"
