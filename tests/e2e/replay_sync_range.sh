#!/usr/bin/env bash
# read_iolog of a log with sync_file_range lines (docs/replay.md): a job with
# sync_file_range=write:4 records "sync_file_range OFFSET 0" after every 4th
# write (fio and iobench alike). Its replay issues the calls the job made:
# sync_file_range(2) of the range the log wrote to the file since the
# previous one, with the replaying job's sync_file_range= flags (write when
# it sets none), counted in the report's sync latencies as the recording
# job's were. (fio 3.33 skips these lines on replay: "bad iolog file action".)
source "$(dirname "$0")/setup.bash"

# The log: fio's own record when fio is installed, else iobench's.
recorder=$bin
command -v fio >/dev/null && recorder=fio
"$recorder" --name=w --filename="$tmp/f" --size=64k --bs=4k --rw=write --ioengine=psync \
  --sync_file_range=write:4 --write_iolog=w.log --output=/dev/null >/dev/null 2>&1 ||
  fail "$recorder could not record the log"
expect_eq "the recorded log's sync_file_range lines" "$(grep -c ' sync_file_range ' w.log)" 3

sync_n() {  # JSON on stdin: the job's sync latency count, write bytes
  python3 -c 'import json,sys
j = json.load(sys.stdin)["jobs"][0]
print(j["sync"]["lat_ns"].get("N", 0), j["write"]["io_bytes"])'
}
have_strace=0
command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null && have_strace=1
calls() {  # strace output: the sync_file_range calls, fd aside
  grep -o 'sync_file_range([0-9]*, [^)]*) = [0-9-]*' "$1" | sed -E 's/\([0-9]+, /(/'
}
want='sync_file_range(0, 16384, SYNC_FILE_RANGE_WRITE) = 0
sync_file_range(16384, 16384, SYNC_FILE_RANGE_WRITE) = 0
sync_file_range(32768, 16384, SYNC_FILE_RANGE_WRITE) = 0'

for eng in psync pvsync2 libaio io_uring posixaio null; do
  "$bin" --list-engines 2>/dev/null | grep -qw "$eng" || continue
  out=$("$bin" --name=r --read_iolog=w.log --ioengine=$eng --iodepth=4 --output-format=json 2>err)
  if [ $? -ne 0 ]; then
    grep -qi 'not available\|not supported by this kernel\|probe' err && continue
    fail "$eng: the replay of a sync_file_range log failed: $(head -3 err)"
    continue
  fi
  expect_eq "$eng: sync latencies and bytes of the replay" "$(sync_n <<<"$out")" "3 65536"
  # The syscalls (io_uring issues them as ring ops, null not at all).
  case $eng in io_uring | null) continue ;; esac
  [ $have_strace = 1 ] || continue
  strace -f -qq -e trace=sync_file_range -o st.$eng \
    "$bin" --name=r --read_iolog=w.log --ioengine=$eng --iodepth=4 --output=/dev/null
  expect_eq "$eng: the replay's sync_file_range calls" "$(calls st.$eng)" "$want"
done

if [ $have_strace = 1 ]; then
  # The replaying job's own flags (its count does not apply: the log says when).
  strace -f -qq -e trace=sync_file_range -o st.flags "$bin" --name=r --read_iolog=w.log \
    --ioengine=psync --sync_file_range=wait_before,write,wait_after:7 --output=/dev/null
  expect_eq "the job's sync_file_range flags" "$(calls st.flags | head -1)" \
    'sync_file_range(0, 16384, SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER) = 0'
  # A hand-written line: with a length, that range; with no write before
  # it, from its offset to the end of the file.
  printf 'fio version 2 iolog\n%s add\n%s open\n%s sync_file_range 8192 0\n%s read 0 4096\n%s sync_file_range 4096 8192\n%s close\n' \
    "$tmp/f" "$tmp/f" "$tmp/f" "$tmp/f" "$tmp/f" "$tmp/f" >hand.log
  strace -f -qq -e trace=sync_file_range -o st.hand "$bin" --name=r --read_iolog=hand.log \
    --ioengine=psync --output=/dev/null
  expect_eq "hand-written sync_file_range lines" "$(calls st.hand)" \
    'sync_file_range(8192, 0, SYNC_FILE_RANGE_WRITE) = 0
sync_file_range(4096, 8192, SYNC_FILE_RANGE_WRITE) = 0'
fi

# The note under the results names them and the flags used.
out=$("$bin" --name=r --read_iolog=w.log --ioengine=psync 2>&1) || fail "normal output: $out"
case $out in *"16 writes, 3 sync_file_ranges (flags write) on $tmp/f"*) echo "ok   note" ;;
  *) fail "the note does not name the sync_file_range entries: $out" ;; esac
# A recording of the replay gives the log's lines back.
"$bin" --name=r --read_iolog=w.log --ioengine=psync --write_iolog=rr.log --output=/dev/null ||
  fail "record of the replay"
expect_eq "the replay's record" "$(awk '{print $3, $4, $5}' rr.log | grep -c '^sync_file_range')" 3

[ "$fails" -eq 0 ]
