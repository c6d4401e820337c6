#!/bin/bash
# --name=x --rw=randread --name=x --rw=randwrite --stonewall --name=x
# --rw=read: one x in group 0, two in group 1. Only the two are numbered
# (docs/sweep.md: `x (g=1, #2)` when the name is in several groups too);
# the lone one read `x (g=0, #1)`. In iobench's and in fio's JSON.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
jobs=(--ioengine=null --size=1m --name=x --rw=randread --name=x --rw=randwrite --stonewall
  --name=x --rw=read)
"$bin" "${jobs[@]}" --output-format=json >iob.json 2>err.txt || fail "run: $(cat err.txt)"
tools=(iob)
if command -v fio >/dev/null; then
  fio --thread "${jobs[@]}" --output-format=json >fio.json 2>/dev/null || fail "fio run"
  tools+=(fio)
fi
for t in "${tools[@]}"; do
  "$bin" --compare "$t.json" "$t.json" >c.txt 2>err.txt
  expect_eq "$t: exit" "$?" 0
  expect_eq "$t: rows" "$(grep -o '^x ([^)]*)' c.txt | tr '\n' ';')" "x (g=0);x (g=1, #1);x (g=1, #2);"
done
[ "$fails" -eq 0 ]
