#!/bin/bash
# log_window_value through the CLI (the windowed logger itself is unit-tested
# in iolog_test.cc): with log_avg_msec, =both logs each window's mean and max
# (6 columns) and the max is never below the mean, in every latency log;
# =max and fio 3.33's alias log_max_value=1 log one value per window (5
# columns, as fio's log_max_value=1 log). Null engine, 60 I/Os 1 ms apart
# (thinktime), 10 ms windows.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
job=(--name=j --ioengine=null --size=1m --thinktime=1ms --number_ios=60 --log_avg_msec=10
  --output-format=json)

"$bin" "${job[@]}" --write_lat_log=b --write_bw_log=b --log_window_value=both >/dev/null 2>err ||
  fail "both: $(cat err)"
for f in b_clat.1.log b_lat.1.log b_bw.1.log; do
  # lines, lines of 6 columns, lines whose max (3rd) is below the mean (2nd)
  got=$(awk -F', ' '{ n++; if (NF == 6) six++; if ($3 + 0 < $2 + 0) below++ }
    END { print (n >= 2), six == n, below + 0 }' "$f")
  expect_eq "both: $f windows, 6 columns, max >= mean" "$got" "1 1 0"
done
# The bw log's max of one window's bandwidth is its mean.
expect_eq "both: bw max = mean" "$(awk -F', ' '$2 != $3' b_bw.1.log | wc -l)" 0
# clat: some window has several I/Os of different latency, so max > mean somewhere.
[ "$(awk -F', ' '$3 + 0 > $2 + 0' b_clat.1.log | wc -l)" -gt 0 ] || fail "both: max never above the mean"

for w in --log_window_value=max --log_max_value=1 --log_window_value=avg; do
  rm -f m_*.log
  "$bin" "${job[@]}" --write_lat_log=m "$w" >/dev/null 2>err || fail "$w: $(cat err)"
  expect_eq "$w: 5 columns" "$(awk -F', ' 'NF != 5' m_clat.1.log | wc -l) $(($(wc -l <m_clat.1.log) >= 2))" "0 1"
done
if fio_side; then
  fio "${job[@]}" --write_lat_log=f --log_max_value=1 >/dev/null 2>err || fail "fio: $(cat err)"
  expect_eq "fio log_max_value=1: 5 columns" "$(awk -F', ' 'NF != 5' f_clat.1.log | wc -l)" 0
fi
[ "$fails" -eq 0 ] && echo "ok: log_window_value logs the window's max"
[ "$fails" -eq 0 ]
