#!/bin/bash
# Offsets of random jobs as write_iolog records them (null engine, 1 MiB or
# 16 MiB, bs=4k), checked for their shape: the offsets themselves are each
# tool's own (docs/patterns.md, Seeds), the shape is fio 3.33's.
#  - random_generator=tausworthe64 (and tausworthe, lfsr) with the random
#    map: randread over 4096 blocks reads each block exactly once, as fio.
#  - rw=randread:N rw_sequencer=identical: each new offset is read N times in
#    a row; 1 MiB gives 256 reads over ceil(256/N) offsets, as fio.
#  - rw=randread:3 (rw_sequencer=sequential): the reads between new offsets
#    continue sequentially without consulting or marking the random map, so
#    some blocks are read twice (fio 3.33 with seeds 1 to 5 and randrepeat=0:
#    256 reads over 161 to 180 blocks, about 170 continuations).
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# shape TOOL OPTIONS...: runs a null-engine randread job with write_iolog and
# prints "reads distinct repeats continuations others aligned-in-range":
# repeats and continuations count reads at the previous read's offset and
# right after it.
shape() {
  local tool=$1
  shift
  rm -f "$tmp/x.log"
  "$(cmd "$tool")" --name=j --ioengine=null --bs=4k --rw=randread "$@" --write_iolog="$tmp/x.log" \
    --output-format=json >/dev/null 2>"$tmp/err" || { echo "failed: $(cat "$tmp/err")"; return; }
  local size=1048576
  case " $* " in *" --size=16m "*) size=16777216 ;; esac
  awk -v size="$size" '$3 == "read" && NF == 5 {
      n++; o = $4 + 0
      if (!(o in seen)) { seen[o] = 1; d++ }
      if (n > 1 && o == prev) same++; else if (n > 1 && o == prev + 4096) nxt++
      if (o % 4096 || o < 0 || o >= size || $5 != 4096) bad = 1
      prev = o
    }
    END { print n + 0, d + 0, same + 0, nxt + 0, (n ? n - 1 - same - nxt : 0), (bad ? 0 : 1) }' "$tmp/x.log"
}

for t in $(tools); do
  for g in tausworthe64 tausworthe lfsr; do
    got=$(shape "$t" --size=16m --random_generator=$g)
    # 4096 reads, every block once, none twice in a row.
    expect_eq "$t $g: 4096 blocks once each" "$(cut -d' ' -f1,2,3,6 <<<"$got")" "4096 4096 0 1"
  done
  expect_eq "$t randread:3 identical" "$(shape "$t" --size=1m --rw=randread:3 --rw_sequencer=identical)" \
    "256 86 170 0 85 1"
  expect_eq "$t randread:8 identical" "$(shape "$t" --size=1m --rw=randread:8 --rw_sequencer=identical)" \
    "256 32 224 0 31 1"
  got=$(shape "$t" --size=1m --rw=randread:3)
  expect_eq "$t randread:3 sequential: 256 aligned reads" "$(cut -d' ' -f1,6 <<<"$got")" "256 1"
  read -r _ distinct _ cont _ <<<"$got"
  if [ "$distinct" -le 140 ] || [ "$distinct" -ge 200 ]; then
    fail "$t randread:3: $distinct distinct blocks, want some read twice ($got)"
  fi
  [ "$cont" -gt 150 ] || fail "$t randread:3: too few sequential continuations ($got)"
done
# Identical: the repeats are in runs of exactly N, starting at the first read.
rm -f "$tmp/x.log"
"$bin" --name=j --ioengine=null --size=1m --rw=randread:3 --rw_sequencer=identical \
  --write_iolog="$tmp/x.log" --output-format=json >/dev/null || fail "identical run"
awk '$3 == "read" { o[n++] = $4 }
  END { for (i = 0; i < n; i++) if ((i % 3 != 0) != (i > 0 && o[i] == o[i - 1])) exit 1 }' \
  "$tmp/x.log" || fail "identical: not runs of exactly 3"
[ "$fails" -eq 0 ] && echo "ok: random offsets have fio's shape"
[ "$fails" -eq 0 ]
