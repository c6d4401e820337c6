#!/bin/bash
# --readonly with a cpuio job whose rw= writes or trims: fio 3.33 refuses it
# ("job <x> has write or trim bit set, but fio is in read-only mode", exit 1)
# as for any engine, though cpuio's chunks write nothing. iobench ran it:
# the engine's set-up makes every chunk a read, and --readonly looked at
# that. Now it is refused (exit 2) naming rw= and where it is set, also at
# a --sweep point; a reading cpuio job still runs.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
work=$tmp

cpuio=(--name=c --ioengine=cpuio --cpuload=10 --number_ios=1)
for rw in write randwrite rw readwrite randrw trim randtrim trimwrite randtrimwrite; do
  expect_run "--readonly cpuio rw=$rw" 2 \
    "^iobench: --readonly: job 'c' (writes|trims|writes and trims) \(rw=[a-z]+ at <cmdline>; its cpuio chunks write nothing" \
    -- "$bin" --readonly "${cpuio[@]}" --rw="$rw" --output-format=terse
done
for rw in read randread; do
  expect_run "--readonly cpuio rw=$rw" 0 "" -- "$bin" --readonly "${cpuio[@]}" --rw="$rw" \
    --output-format=terse
done

printf '[global]\nioengine=cpuio\ncpuload=10\nnumber_ios=1\n[c]\nrw=randwrite\n' >c.fio
for mode in --parse-only --showcmd ""; do
  expect_run "--readonly $mode c.fio" 2 "job 'c' writes \(rw=randwrite at c.fio:6;" \
    -- "$bin" --readonly $mode c.fio --output-format=terse
done
# A sweep point is the parsed job with another option: it still says write.
expect_run "--readonly --sweep bs=4k,8k c.fio" 2 "job 'c' writes \(rw=randwrite at c.fio:6;" \
  -- "$bin" --readonly --parse-only --sweep bs=4k,8k c.fio
[ "$fails" -eq 0 ]
