#!/bin/bash
# rate_min / rate_iops_min judge the job's last stretch too, as fio 3.33's
# check_min_rate does: it judges at the end of each thinktime pause, before
# it looks at the runtime, so a 3 s job whose 1 s pauses hold it at one 4k
# read a second fails rate_min=10k (fio: "got 4096B/s"), and so do 600 ms
# pauses (6826 B/s, 1 IOPS). Whatever the machine's speed: each window holds
# one I/O and at least one pause. Jobs that keep well above their minimum do
# not fail. iobench used to judge only before a new I/O and skip a direction
# that completed nothing since its last check: all five jobs passed.
# ~3 s (the jobs run together).
# $1: iobench binary, $2: source dir.
# ctest-cost: 4
source "$2/tests/e2e/setup.bash"
cat >lw.fio <<'JOBS'
[global]
ioengine=null
bs=4k
size=1g
rw=read
runtime=3
time_based
rate_cycle=500
[bw1s]
rate_min=10k
thinktime=1s
[bw600]
rate_min=10k
thinktime=600ms
[iops600]
rate_iops_min=5
thinktime=600ms
[rated]
rate_iops=100
rate_iops_min=20
[paused]
rate_min=1k
thinktime=100ms
JOBS

# jobs JSONFILE: "name error" per job (fio's pretty JSON).
jobs() {
  awk -F' : ' '/"jobname"/ { if (name != "") print name, e; name = $2; gsub(/[",]/, "", name); k = 0 }
    /"error"/ && k == 0 { e = $2 + 0; k = 1 }
    END { if (name != "") print name, e }' "$1"
}
fio_side && { fio --output-format=json lw.fio >fio.json 2>fio.err; echo $? >fio.rc; } &
"$bin" --output-format=json lw.fio >iob.json 2>iob.err
expect_eq "iobench exit" "$?" 1
wait
want='bw1s 5;bw600 5;iops600 5;rated 0;paused 0;'
expect_eq "iobench jobs" "$(jobs iob.json | tr '\n' ';')" "$want"
n=0
while IFS= read -r line; do
  n=$((n + 1))
  case $n in
    1) re="^iobench: job 'bw1s': err=5 \(read bandwidth [0-9]+ B/s over [0-9]+ ms is below rate_min=10240 B/s\)$" ;;
    2) re="^iobench: job 'bw600': err=5 \(read bandwidth [0-9]+ B/s over [0-9]+ ms is below rate_min=10240 B/s\)$" ;;
    3) re="^iobench: job 'iops600': err=5 \(read IOPS [01] over [0-9]+ ms is below rate_iops_min=5\)$" ;;
    *) re='^$' ;;
  esac
  [[ $line =~ $re ]] || fail "stderr line $n: $line"
done <iob.err
expect_eq "stderr lines" "$n" 3
if fio_side; then
  expect_eq "fio exit (one per failed job)" "$(cat fio.rc)" 3
  expect_eq "fio jobs" "$(jobs fio.json | tr '\n' ';')" "$want"
fi
[ "$fails" -eq 0 ] && echo "ok: rate_min judges the stretch after the last pause; met minimums pass"
[ "$fails" -eq 0 ]
