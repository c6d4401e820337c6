#!/bin/bash
# End to end: --repeat=N with the normal report ends with the median (the
# figures the JSON and the tables give), as tables of IOPS, bandwidth and
# clat p50/p99 with each figure's min-max; with the table format asked for
# too, the tables are not printed twice; terse has the median's record, one
# per job as a single run's (docs/sweep.md; repeat_terse_median.sh).
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
job=(--name=t --ioengine=null --size=1m --bs=4k --repeat=3)
"$bin" "${job[@]}" >"$tmp/n.out" 2>"$tmp/n.err"
expect_eq "normal: exit" "$?" 0
expect_eq "normal: median block" "$(grep -c '^=== median of 3 runs ===$' "$tmp/n.out")" 1
grep -q "^read IOPS$" "$tmp/n.out" || fail "normal: no IOPS table: $(tail -20 "$tmp/n.out")"
grep -q "^read clat p99 (µs)$" "$tmp/n.out" || fail "normal: no clat p99 table"
expect_eq "normal: captions" "$(grep -c 'median of 3 runs$' "$tmp/n.out")" 4
"$bin" "${job[@]}" --output-format=normal,table >"$tmp/nt.out" 2>&1
expect_eq "normal,table: no median block" "$(grep -c '^=== median of' "$tmp/nt.out")" 0
expect_eq "normal,table: one IOPS table" "$(grep -c '^read IOPS$' "$tmp/nt.out")" 1
"$bin" "${job[@]}" --output-format=terse >"$tmp/t.out" 2>&1
expect_eq "terse: the median's record" "$(grep -c '^3;' "$tmp/t.out")" 1
# Ctrl-C in run 2 of 3: the cut run is left out, so the median is of the
# runs before it, and the heading says so (it said "median of 3 runs").
source "$2/tests/e2e/signal_wait.bash"
"$bin" --name=t --ioengine=null --size=16m --runtime=1 --time_based --rate_iops=5000 --repeat=3 \
  >"$tmp/c.out" 2>"$tmp/c.err" &
pid=$!
wait_catching "$pid" 2 || fail "ctrl-c: iobench never caught SIGINT"
sleep 1.5
kill -INT "$pid"
wait "$pid"
expect_eq "ctrl-c: exit" "$?" 130
expect_eq "ctrl-c: no 'median of 3 runs'" "$(grep -c '^=== median of 3 runs ===$' "$tmp/c.out")" 0
expect_eq "ctrl-c: heading says the runs it has" \
  "$(grep -cE '^=== median of [12] runs? \(3 asked; a signal stopped the repeats\) ===$' "$tmp/c.out")" 1
[ "$fails" -eq 0 ]
