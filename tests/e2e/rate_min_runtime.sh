#!/bin/bash
# rate_min / rate_iops_min missed at run time (fio's check_min_rate): the
# null engine held to about 100 IOPS by thinktime=10ms can never reach
# 10 MiB/s nor 1000 IOPS, so after fio's 2 s settling time each job fails
# with err=5 (EIO), says why on stderr, and the run exits 1. fio 3.33 gives
# err=5 to all three jobs too (its exit status counts them: 3).
# ~3 s: the check starts only after 2 s, as in fio.
# $1: iobench binary, $2: source dir.
# ctest-cost: 4
source "$2/tests/e2e/setup.bash"
printf '[global]\nioengine=null\nsize=1g\nthinktime=10ms\n[bw]\nrate_min=10m\n[iops]\nrate_iops_min=1000\n[wbw]\nrw=write\nrate_min=,10m\n' >rm.fio

# jobs JSONFILE: "name error read_ios>0 write_ios>0" per job.
jobs() {  # (fio's pretty JSON: per job "jobname", "error", then read's and write's "total_ios")
  awk -F' : ' '/"jobname"/ { if (name != "") print name, e, r, w; name = $2; gsub(/[",]/, "", name); k = 0 }
    /"error"/ && k == 0 { e = $2 + 0 }
    /"total_ios"/ { k++; if (k == 1) r = ($2 + 0 > 0); if (k == 2) w = ($2 + 0 > 0) }
    END { if (name != "") print name, e, r, w }' "$1"
}
fio_side && { fio --output-format=json rm.fio >fio.json 2>fio.err; echo $? >fio.rc; } &
"$bin" --output-format=json rm.fio >iob.json 2>iob.err
expect_eq "iobench exit" "$?" 1
wait
want=$'bw 5 1 0\niops 5 1 0\nwbw 5 0 1'
expect_eq "iobench jobs" "$(jobs iob.json | tr '\n' ';')" "$(tr '\n' ';' <<<"$want")"
# stderr: one line per job, in job order, naming the measure and the limit.
n=0
while IFS= read -r line; do
  n=$((n + 1))
  case $n in
    1) re="^iobench: job 'bw': err=5 \(read bandwidth [0-9]+ B/s over [0-9]+ ms is below rate_min=10485760 B/s\)$" ;;
    2) re="^iobench: job 'iops': err=5 \(read IOPS [0-9]+ over [0-9]+ ms is below rate_iops_min=1000\)$" ;;
    3) re="^iobench: job 'wbw': err=5 \(write bandwidth [0-9]+ B/s over [0-9]+ ms is below rate_min=10485760 B/s\)$" ;;
    *) re='^$' ;;
  esac
  [[ $line =~ $re ]] || fail "stderr line $n: $line"
done <iob.err
expect_eq "stderr lines" "$n" 3
if fio_side; then
  expect_eq "fio exit (one per failed job)" "$(cat fio.rc)" 3
  expect_eq "fio jobs" "$(jobs fio.json | tr '\n' ';')" "$(tr '\n' ';' <<<"$want")"
  grep -q "^bw: rate_min=10485760B/s not met, got [0-9]*B/s$" fio.err || fail "fio's message: $(cat fio.err)"
fi
[ "$fails" -eq 0 ] && echo "ok: a missed rate_min fails the job with err=5, exit 1"
[ "$fails" -eq 0 ]
