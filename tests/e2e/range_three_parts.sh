#!/usr/bin/env bash
# A range with a third part (bsrange=4k-8k-16k) was run as 4k-8k without a
# word, also under --parse-only: fio reads lo-hi and drops the rest, so the
# job would not do what its file says. Refused, naming the option, with
# file:line:col and a caret, for every lo-hi option. fio's own t0023 form
# (bsrange=512/25:1k:25:...) stays accepted.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

for opt in "bsrange=4k-8k-16k" "bsrange=4k:8k:16k" "bsrange=4k-8k,8k-16k-32k" \
  "filesize=4k-8k-16k" "startdelay=1-2-3"; do
  name=${opt%%=*}
  printf '[j]\nioengine=null\nsize=1m\n%s\n' "$opt" >r.fio
  if "$bin" --parse-only r.fio >out 2>err; then
    fail "$opt: accepted: $(cat out)"
    continue
  fi
  grep -q "r.fio:4:.*option '$name'.*more than two parts" err ||
    fail "$opt: error does not name the option and r.fio:4: $(cat err)"
  grep -q '^ *\^' err || fail "$opt: no caret: $(cat err)"
done
for opt in "bsrange=512/25:1k:25:2k:25:4k/25" "bsrange=4k-8k" "filesize=4k-8k"; do
  "$bin" --name=j --ioengine=null --size=64k --parse-only --"$opt" >out 2>err ||
    fail "$opt: refused: $(cat err)"
done
[ "$fails" -eq 0 ]
