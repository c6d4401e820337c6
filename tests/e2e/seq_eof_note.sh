#!/usr/bin/env bash
# A sequential read that finds the end of the file partway through a pass
# ends the pass there (docs/running.md), and says so: iobench's report had
# no word of it (issued 8 of 64 KiB's 16 blocks, err=0, "notes" : []), where
# fio 3.33 fails the job with EIO. And passes that keep finding the end
# before any data (a file emptied under a time_based job) end the job with a
# note: they spun on reads of 0 bytes for the rest of the runtime.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# job args..., then checks on out.json / out.txt
run() {
  rm -rf d && mkdir d
  head -c "$1" /dev/zero >d/j.0.0
  shift
  timeout 60 "$bin" --name=j --directory=d --bs=4k --rw=read --create_on_open=1 \
    --output-format=normal,json --output=out "$@" >/dev/null 2>err ||
    fail "$*: exit $? ($(cat err))"
  # The JSON report, from its first line to its closing brace.
  sed -n '/^{/,/^}/p' out >out.json
}
notes() { python3 -c 'import json,sys; print("|".join(json.load(open("out.json"))["jobs"][0]["iobench"]["notes"]))'; }
ios() { python3 -c 'import json; print(json.load(open("out.json"))["jobs"][0]["read"]["total_ios"])'; }
partial="sequential pass"
stop="2 passes in a row found the end of the file before any data: the job ended there"

for engine in psync libaio; do
  qd=1
  [ $engine = libaio ] && qd=4
  # 32 KiB of a 64 KiB region: 8 reads, one pass cut short by 32768 bytes.
  run 32k --size=64k --ioengine=$engine --iodepth=$qd
  expect_eq "$engine: reads" "$(ios)" 8
  expect_eq "$engine: note" "$(notes)" \
    "1 sequential pass found the end of the file early: 32768 bytes of the region not read (fio fails such a read with EIO)"
  grep -q "note: 1 sequential pass found the end of the file early: 32768 bytes" out ||
    fail "$engine: no note in the normal report"
  # Each of 3 loops once, whatever was in flight past the end (libaio's iodepth=4).
  run 32k --size=64k --ioengine=$engine --iodepth=$qd --loops=3
  expect_eq "$engine loops=3: reads" "$(ios)" 24
  expect_eq "$engine loops=3: note" "$(notes)" \
    "3 sequential passes found the end of the file early: 98304 bytes of the regions not read (fio fails such a read with EIO)"
  # A short read at the end: 6000 bytes are 2 reads (one short), 2192 bytes not read.
  run 6000 --size=8k --ioengine=$engine
  expect_eq "$engine short: note" "$(notes)" \
    "1 sequential pass found the end of the file early: 2192 bytes of the region not read (fio fails such a read with EIO)"
  # Data to the end of the region: no note.
  run 64k --size=64k --ioengine=$engine --iodepth=$qd --loops=3
  expect_eq "$engine whole file: notes" "$(notes)" ""
  # time_based on an empty file (a region past the end is the same): every
  # pass finds the end at once; the second in a row ends the job, long
  # before its runtime (timeout 60 above fails it otherwise).
  run 0 --size=64k --ioengine=$engine --iodepth=$qd --time_based --runtime=50
  case "$(notes)" in
    "$stop, before its runtime (fio fails such a job with EIO)|the reads found the end of the file before any data"*) echo "ok   $engine empty time_based: notes" ;;
    *) fail "$engine empty time_based: notes: $(notes)" ;;
  esac
  expect_eq "$engine empty time_based: reads" "$(ios)" 0
  run 32k --size=64k --offset=48k --ioengine=$engine --iodepth=$qd --loops=10
  case "$(notes)" in
    "$stop, before its loops"*) echo "ok   $engine region past the end: notes" ;;
    *) fail "$engine region past the end: notes: $(notes)" ;;
  esac
done
[ "$fails" -eq 0 ]
