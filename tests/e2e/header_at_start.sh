#!/bin/bash
# The normal report's header lines (context, job lines, "Starting N threads")
# go out as the jobs start, as fio prints them, not with the results at the
# end: a terminal, a tee'd log or --output shows what runs from the start.
# Checked by order, never by time. $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# The --output file holds the header while the job still runs: a snapshot
# taken by exec_postrun (after the job's I/O, before the report) has it, and
# nothing of the results yet.
"$bin" --name=t --ioengine=null --size=1m --output="$tmp/o.txt" \
  --exec_postrun="cp $tmp/o.txt $tmp/snap.txt" >/dev/null 2>"$tmp/e.txt" || fail "postrun: exit $?"
grep -q "^iobench-.*: kernel " "$tmp/snap.txt" || fail "no context line before the end: $(cat "$tmp/snap.txt" "$tmp/e.txt")"
grep -q "^t: (g=0): rw=read, " "$tmp/snap.txt" || fail "no job line before the end: $(cat "$tmp/snap.txt")"
grep -q "^Starting 1 thread$" "$tmp/snap.txt" || fail "no Starting line before the end: $(cat "$tmp/snap.txt")"
grep -q "groupid=" "$tmp/snap.txt" && fail "results before the end: $(cat "$tmp/snap.txt")"
# The whole file is the header once, then the results.
expect_eq "header lines in the file" "$(grep -c '^Starting 1 thread$' "$tmp/o.txt")" 1
grep -q "^t: (groupid=0, jobs=1)" "$tmp/o.txt" || fail "no results: $(cat "$tmp/o.txt")"

# In one stream with the status lines: the header comes before the first one.
"$bin" --name=t --ioengine=null --size=1g --time_based --runtime=2 --rate_iops=5000 --eta=always \
  --eta-newline=1 >"$tmp/s.txt" || fail "status run: exit $?"
first_start=$(grep -an "^Starting 1 thread" "$tmp/s.txt" | head -1 | cut -d: -f1)
first_jobs=$(tr '\r' '\n' <"$tmp/s.txt" | grep -an "Jobs: " | head -1 | cut -d: -f1)
[ -n "$first_start" ] && [ -n "$first_jobs" ] || fail "status run output: $(head -c 400 "$tmp/s.txt" | cat -v)"
[ "$first_start" -lt "$first_jobs" ] || fail "header after the status line: $(head -c 400 "$tmp/s.txt" | cat -v)"

# Two phases: the second phase's target line goes out when it starts (after
# the job lines and Starting), once; the report follows.
cat >"$tmp/p.fio" <<JOB
[a]
filename=$tmp/a.dat
size=64k
rw=write
[b]
filename=$tmp/b/b.dat
size=64k
stonewall
JOB
"$bin" "$tmp/p.fio" >"$tmp/p.txt" 2>"$tmp/pe.txt" || fail "phases: exit $? $(cat "$tmp/pe.txt")"
expect_eq "target a lines" "$(grep -c "^target $tmp/a.dat: " "$tmp/p.txt")" 1
expect_eq "target b lines" "$(grep -c "^target $tmp/b/b.dat: " "$tmp/p.txt")" 1
order=$(grep "^target \|^[ab]: (g\|^Starting" "$tmp/p.txt" |
  sed -E 's/^(target) .*/\1/; s/^([ab]): \(g=.*/\1 job/; s/^([ab]): \(groupid.*/\1 result/' | tr '\n' '|')
expect_eq "phase order" "$order" "target|a job|b job|Starting 2 threads|target|a result|b result|"

# A stop: the interruption note once, after the header.
timeout --preserve-status -s INT 1 "$bin" --name=t --ioengine=null --size=1g --time_based --runtime=20 --rate_iops=5000 >"$tmp/i.txt"
expect_eq "interrupted exit" "$?" 130
expect_eq "interruption notes" "$(grep -c "^note: the run was interrupted" "$tmp/i.txt")" 1
expect_eq "header lines" "$(grep -c "^Starting 1 thread" "$tmp/i.txt")" 1

# A replay (read_iolog) runs reshaped to its log: its job line, printed
# once, is the reshaped job (docs/replay.md), never the job as written too
# (the header at the start printed that one and the end the reshaped one).
"$bin" --name=w --filename="$tmp/f" --rw=randwrite --bs=4k --size=64k --write_iolog="$tmp/w.log" \
  >/dev/null 2>&1 || fail "write_iolog: exit $?"
printf '[r]\nfilename=%s\nrw=randread\nbs=64k\nread_iolog=%s\n' "$tmp/f" "$tmp/w.log" >"$tmp/r.fio"
for how in file cmdline null; do
  case $how in
    file) args=("$tmp/r.fio") ;;
    cmdline) args=(--name=r --read_iolog="$tmp/w.log") ;;
    null) args=(--name=r --ioengine=null --read_iolog="$tmp/w.log") ;;
  esac
  "$bin" "${args[@]}" >"$tmp/r.txt" 2>"$tmp/re.txt" || fail "replay $how: exit $? $(cat "$tmp/re.txt")"
  expect_eq "replay $how: job lines" "$(grep -c "^r: (g=0)" "$tmp/r.txt")" 1
  grep -q "^r: (g=0): rw=write, bs=(R) 4096B-4096B, " "$tmp/r.txt" ||
    fail "replay $how: not the reshaped line: $(grep "^r: (g" "$tmp/r.txt")"
  order=$(grep "^r: (g=\|^Starting" "$tmp/r.txt" | sed -E 's/^r: \(g=.*/job/' | tr '\n' '|')
  expect_eq "replay $how: order" "$order" "job|Starting 1 thread|"
done
# Replayed in a later phase, of a log the first phase writes: its line goes
# out when its phase starts, once, reshaped; the other job's at the start.
cat >"$tmp/rp.fio" <<JOB
[a]
filename=$tmp/g
size=64k
bs=4k
rw=randwrite
write_iolog=$tmp/g.log
[b]
filename=$tmp/g
rw=randread
bs=64k
read_iolog=$tmp/g.log
stonewall
JOB
"$bin" "$tmp/rp.fio" >"$tmp/rp.txt" 2>"$tmp/rpe.txt" || fail "later replay: exit $? $(cat "$tmp/rpe.txt")"
expect_eq "later replay: a lines" "$(grep -c "^a: (g=0)" "$tmp/rp.txt")" 1
expect_eq "later replay: b lines" "$(grep -c "^b: (g=1)" "$tmp/rp.txt")" 1
grep -q "^b: (g=1): rw=write, bs=(R) 4096B-4096B, " "$tmp/rp.txt" ||
  fail "later replay: not the reshaped line: $(grep "^b: (g" "$tmp/rp.txt")"
expect_eq "later replay: Starting lines" "$(grep -c "^Starting 2 threads$" "$tmp/rp.txt")" 1

# JSON alone: no header at all.
"$bin" --name=t --ioengine=null --size=64k --output-format=json | python3 -m json.tool >/dev/null ||
  fail "json alone is not one document"

[ "$fails" -eq 0 ]
