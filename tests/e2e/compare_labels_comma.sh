#!/bin/bash
# End to end: --compare-labels takes `\,` as a comma inside a label, as
# --sweep values do (docs/sweep.md): 'a\,1,b' was refused ("want two
# labels"), so no label could hold a comma.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
work=$tmp
"$bin" --name=j --ioengine=null --size=1m --output-format=json --output=a.json 2>err ||
  fail "a.json: $(cat err)"
cp a.json b.json
expect_run "a\\,1,b" 0 "" -- "$bin" --compare a.json b.json --compare-labels='a\,1,b'
expect_eq "header" "$(grep '^job' out)" "job    a,1      b   delta"
expect_run "a\\,1,b csv" 0 "" -- "$bin" --compare a.json b.json --compare-labels='a\,1,b' --table-style=csv
expect_eq "csv header" "$(grep '^job' out)" 'job,"a,1",b,delta'
# Against a run made now, too.
expect_run "a run" 0 "" -- "$bin" --compare a.json --name=j --ioengine=null --size=1m \
  --compare-labels='old\,1,new\,2' --output-format=table
expect_eq "run header" "$(grep '^job.*delta$' out | tr -s ' ')" "job old,1 new,2 delta"
# Still two labels, neither empty.
for bad in 'a\,b' 'a,b,c' ',b' 'a\,'; do
  expect_run "$bad" 2 "^iobench: --compare-labels=.*: want two labels, BASE,NEW \(e.g. 'bio\(base\),blk-mq'; \\\\, is a comma in a label\)$" \
    -- "$bin" --compare a.json b.json --compare-labels="$bad"
done
[ "$fails" -eq 0 ]
