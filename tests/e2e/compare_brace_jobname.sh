#!/bin/bash
# End to end: --compare reads a results file that also holds the normal
# report (--output-format=json,normal) of a job whose name starts with '{'.
# The report's job lines ("{x}: (g=0): ...") begin with '{' like a JSON
# document, and the last-document-wins rule for --status-interval files
# took the line after the JSON: the file was refused ("not valid JSON ...
# near '{x'"), and one not named .json was parsed as a job file. Such lines
# are skipped now; iobench's and fio 3.33's files both read.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"
job=(--name='{x}' --ioengine=null --size=4m --output-format=json,normal)
"$bin" "${job[@]}" >iob.json 2>iob.err || fail "iobench run: $(cat iob.err)"
grep -q '^{x}: ' iob.json || fail "iobench: no normal-report job line: $(head -3 iob.json)"
cp iob.json iob.out
files=(iob.json iob.out)
if fio_side; then
  fio "${job[@]}" >fio.out 2>fio.err || fail "fio run: $(cat fio.err)"
  grep -q '^{x}: ' fio.out || fail "fio: no normal-report job line: $(head -3 fio.out)"
  files+=(fio.out)
fi
for base in "${files[@]}"; do
  for new in "${files[@]}"; do
    "$bin" --compare "$base" "$new" >c.out 2>c.err
    rc=$?
    expect_eq "$base vs $new: exit ($(cat c.err))" "$rc" 0
    grep -q '^{x} ' c.out || fail "$base vs $new: no row for {x}: $(cat c.out)"
  done
done
[ "$fails" -eq 0 ]
