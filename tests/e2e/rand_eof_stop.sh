#!/usr/bin/env bash
# A random read job whose files have nothing left in its region (a file
# truncated to nothing under a time_based job, one create_on_open made
# empty, a region past the end) ends with a note, as sequential passes that
# keep finding the end do (seq_eof_note.sh, docs/running.md): it spun on
# reads of 0 bytes for the rest of its runtime (about a million a second
# on psync), exit 0, its bandwidth over the whole runtime. A file that
# still has data in the region goes on, however few its blocks.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# file bytes, job args..., then checks on out.json
run() {
  rm -rf d && mkdir d
  head -c "$1" /dev/zero >d/j.0.0
  shift
  timeout 120 "$bin" --name=j --directory=d --bs=4k --create_on_open=1 \
    --output-format=json --output=out "$@" >/dev/null 2>err ||
    fail "$*: exit $? ($(cat err))"
  sed -n '/^{/,/^}/p' out >out.json
}
field() { python3 -c 'import json,sys; j=json.load(open("out.json"))["jobs"][0]; print(eval(sys.argv[1]))' "$1"; }
notes() { field '"|".join(j["iobench"]["notes"])'; }
stop="random reads in a row found the end of the file, and no file had data left in its region: the job ended there"

for engine in psync libaio io_uring; do
  qd=1
  [ $engine != psync ] && qd=8
  # An empty file, 16 blocks of size: 16 reads in a row find the end, the
  # file has nothing: the job ends (the old code read on for 20 s; the
  # timeout above is a guard, the note is the check).
  run 0 --size=64k --rw=randread --ioengine=$engine --iodepth=$qd --time_based --runtime=20
  case "$(notes)" in
    *"16 $stop, before its runtime (fio fails such a job with EIO)"*) echo "ok   $engine empty: note" ;;
    *) fail "$engine empty: notes: $(notes)" ;;
  esac
  expect_eq "$engine empty: reads" "$(field 'j["read"]["total_ios"]')" 0
  expect_eq "$engine empty: error" "$(field 'j["error"]')" 0
  # norandommap: the same.
  run 0 --size=64k --rw=randread --norandommap --ioengine=$engine --iodepth=$qd --time_based --runtime=20
  case "$(notes)" in
    *"$stop, before its runtime"*) echo "ok   $engine empty norandommap: note" ;;
    *) fail "$engine empty norandommap: notes: $(notes)" ;;
  esac
  # A region past the end of a 32 KiB file, loops=1000: ends before its loops.
  run 32k --size=16k --offset=48k --rw=randread --ioengine=$engine --iodepth=$qd --loops=1000
  case "$(notes)" in
    *"4 $stop, before its loops"*) echo "ok   $engine region past the end: note" ;;
    *) fail "$engine region past the end: notes: $(notes)" ;;
  esac
  # One block of data in a 64k region (a shrinking tail): runs of reads
  # past the end come and go, the file still has data: the job goes on to
  # its loops, reading that block each time.
  run 4k --size=64k --rw=randread --norandommap --ioengine=$engine --iodepth=$qd --loops=200
  case "$(notes)" in
    *"$stop"*) fail "$engine one block left: stopped: $(notes)" ;;
    *) echo "ok   $engine one block left: goes on" ;;
  esac
  [ "$(field 'j["read"]["total_ios"]')" -gt 10 ] || fail "$engine one block left: reads $(field 'j["read"]["total_ios"]')"
  # A job that writes may lay data where its reads look: randrw on an empty
  # file never stops (it did when its first 16 ops were reads, before any
  # write landed: 7 runs in 30 with rwmixread=90 randrepeat=0).
  run 0 --size=64k --rw=randrw --rwmixread=90 --ioengine=$engine --iodepth=$qd --loops=20
  case "$(notes)" in
    *"$stop"*) fail "$engine randrw empty: stopped: $(notes)" ;;
    *) echo "ok   $engine randrw empty: goes on" ;;
  esac
  [ "$(field 'j["write"]["total_ios"]')" -gt 0 ] || fail "$engine randrw empty: no write"
done
[ "$fails" -eq 0 ]
