#!/usr/bin/env bash
# write_iolog / read_iolog against fio 3.33 on tmpfs files (docs/replay.md):
#  - the log iobench records for a deterministic job equals fio's line by line
#    (times aside);
#  - a replayed log gives fio's I/O counts and bytes, and the same
#    (direction, length, offset) per I/O, read from both tools' clat logs
#    with log_offset=1; with replay_scale/replay_align/replay_redirect/replay_skip too;
#  - bad logs fail before the run with the log's name and line.
set -u
bin=$(realpath "$1")
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }
tmp=$(mktemp -d /dev/shm/iobench_replay.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
notimes() { awk 'NR == 1 { print; next } { $1 = ""; sub(/^ /, ""); print }' "$1"; }
# A sync line's offset is the one its request slot last carried: fio's sync
# between loops carries the offset it refused for the next I/O (docs/replay.md).
nosyncoffsets() { sed -E 's/ sync [0-9]+ 0$/ sync 0/'; }
filter=cat
prep=:  # run before each tool's run (a case's files as it wants them)

# --- recording: same lines as fio's write_iolog ---
record_case() {  # name, then job options
  local name=$1
  shift
  rm -f "fio_$name.log" "ib_$name.log"
  $prep
  # fio_fails=1: fio fails the job (EIO: a read of an empty file), iobench notes it.
  fio --name=j "$@" --write_iolog="fio_$name.log" --output=/dev/null ||
    [ "${fio_fails:-0}" = 1 ] || fail "fio $name"
  $prep
  "$bin" --name=j "$@" --write_iolog="ib_$name.log" --output=/dev/null || fail "iobench $name"
  diff <(notimes "fio_$name.log" | $filter) <(notimes "ib_$name.log" | $filter) >"diff_$name" ||
    fail "write_iolog $name differs from fio's: $(head -20 "diff_$name")"
}
truncate -s 256k data
record_case seqwrite --filename="$tmp/data" --ioengine=psync --rw=write --bs=4k --size=64k --fsync=4
record_case seqread --filename="$tmp/data" --ioengine=psync --rw=read --bs=16k --size=256k
record_case nullfiles --ioengine=null --rw=write --bs=8k --size=64k --nrfiles=2
record_case nullsync --ioengine=null --rw=write --bs=4k --size=32k --fdatasync=3
record_case nulltrim --ioengine=null --rw=trim --bs=4k --size=32k
# end_fsync / fsync_on_close: fio logs the closing sync of each file.
truncate -s 64k data2
record_case endfsync --filename="$tmp/data:$tmp/data2" --ioengine=psync --rw=write --bs=4k \
  --size=16k --end_fsync=1
record_case fsynconclose --filename="$tmp/data" --ioengine=psync --rw=write --bs=4k --size=16k \
  --fsync_on_close=1
# loops: fio closes the files between loops (its end sync reopens each one)
# and opens them again at the next loop's first I/O.
record_case loops --filename="$tmp/data" --ioengine=psync --rw=write --bs=4k --size=16k --loops=2
record_case readloops --filename="$tmp/data" --ioengine=psync --rw=read --bs=4k --size=16k --loops=3
filter=nosyncoffsets record_case loopsync --filename="$tmp/data:$tmp/data2" --ioengine=psync --rw=write --bs=4k \
  --size=16k --loops=2 --end_fsync=1
# A file the job never comes to has its "add" line alone, as in fio: io_size
# runs out before the third file, and create_on_open's read of the empty
# j.0.0 ends the job before j.0.1. iobench logged "open" and "close" for it
# at the job's end. An end sync still opens, syncs and closes it, as fio's.
record_case unreached --ioengine=psync --rw=read --bs=4k --size=48k --io_size=8k --nrfiles=3
record_case unreachedsync --ioengine=psync --rw=write --bs=4k --size=48k --io_size=8k \
  --nrfiles=3 --end_fsync=1
fio_fails=1 prep="rm -f j.0.0 j.0.1" record_case createonopen --ioengine=psync --rw=read --bs=4k --size=32k \
  --nrfiles=2 --create_on_open=1
# Appends, as fio: two runs, two headers.
"$bin" --name=j --ioengine=null --rw=read --size=8k --write_iolog=ib_seqread.log --output=/dev/null
[ "$(grep -c '^fio version 3 iolog$' ib_seqread.log)" = 2 ] || fail "write_iolog does not append"

# --- replay: fio's counts, bytes and offsets ---
f=$tmp/target
truncate -s 1m "$f"
{
  echo "fio version 3 iolog"
  echo "0 $f add"
  echo "1 $f open"
  t=2
  for i in $(seq 0 59); do
    off=$(( (i * 7919 % 200) * 4096 ))
    len=$(( 4096 << (i % 3) ))
    case $((i % 4)) in
      0) act=write ;;
      *) act=read ;;
    esac
    echo "$t $f $act $off $len"
    t=$((t + 1))
    # fio writes a sync with the offset of the I/O before it.
    [ $((i % 10)) = 9 ] && { echo "$t $f sync $off 0"; t=$((t + 1)); }
    [ $((i % 25)) = 24 ] && { echo "$t $f datasync $off 0"; t=$((t + 1)); }
  done
  echo "$t $f close"
} >in.log
# Sorted "ddir length offset" per I/O from a clat log written with log_offset=1.
ios() { awk -F', ' '{ print $3, $4, $5 }' "$1" | sort; }
counts() {  # "read_ios read_bytes write_ios write_bytes fsyncs all_syncs" from JSON
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(j["read"]["total_ios"], j["read"]["io_bytes"], j["write"]["total_ios"], j["write"]["io_bytes"],
      j["sync"]["total_ios"], j["sync"]["lat_ns"]["N"])' "$1"
}
replay_case() {  # name, then options
  local name=$1
  shift
  rm -f fio_"$name"_* ib_"$name"_*
  fio --name=r --read_iolog="${log:-in.log}" --replay_no_stall=1 --write_lat_log="fio_$name" \
    --log_offset=1 --output-format=json --output="fio_$name.json" "$@" || fail "fio replay $name"
  "$bin" --name=r --read_iolog="${log:-in.log}" --replay_no_stall=1 --write_lat_log="ib_$name" \
    --log_offset=1 --output-format=json --output="ib_$name.json" "$@" || fail "iobench replay $name"
  [ "$(counts "fio_$name.json")" = "$(counts "ib_$name.json")" ] ||
    fail "replay $name: fio counts $(counts "fio_$name.json"), iobench $(counts "ib_$name.json")"
  diff <(ios "fio_${name}_clat.1.log") <(ios "ib_${name}_clat.1.log") >/dev/null ||
    fail "replay $name: per-I/O direction/length/offset differ from fio's"
}
replay_case plain --ioengine=psync
replay_case scaled --ioengine=psync --replay_scale=3 --replay_align=4096
# fio 3.33 ignores replay_skip (its man page says what it should do): the
# skipped run must give fio's reads and no writes.
"$bin" --name=r --read_iolog=in.log --replay_no_stall=1 --replay_skip=write,sync \
  --output-format=json --output=ib_skip.json || fail "iobench replay_skip"
set -- $(counts fio_plain.json)
[ "$(counts ib_skip.json)" = "$1 $2 0 0 0 2" ] || fail "replay_skip=write,sync: $(counts ib_skip.json)"
truncate -s 1m other
replay_case redirect --ioengine=psync --replay_redirect="$tmp/other"
replay_case null --ioengine=null
# The same log in version 2 (no times).
notimes in.log | sed '1s/version 3/version 2/' >in2.log
log=in2.log replay_case v2 --ioengine=psync
[ "$(counts ib_v2.json)" = "$(counts ib_plain.json)" ] || fail "v2 replay: $(counts ib_v2.json)"
# numjobs clones recording into one file append a run each (two headers):
# fio replays both runs; so must iobench (it refused the second header).
fio --name=j --filename="$f" --ioengine=psync --rw=randread --bs=4k --size=16k --numjobs=2 \
  --write_iolog=shared.log --output=/dev/null || fail "fio shared record"
[ "$(grep -c '^fio version 3 iolog$' shared.log)" = 2 ] || fail "shared.log: $(head -3 shared.log)"
log=shared.log replay_case shared --ioengine=psync 2>/dev/null
[ "$(counts ib_shared.json)" = "8 32768 0 0 0 0" ] || fail "shared replay: $(counts ib_shared.json)"
# Async engines keep several entries in flight; a sync waits for them. fio
# 3.33's own async replays lose read bytes (a different count per run), so
# these compare with fio's psync replay of the same log.
for e in io_uring libaio; do
  if "$bin" --name=p --ioengine=$e --filename="$f" --size=4k --output=/dev/null 2>/dev/null; then
    "$bin" --name=r --read_iolog=in.log --replay_no_stall=1 --write_lat_log="ib_$e" --log_offset=1 \
      --output-format=json --output="ib_$e.json" --ioengine=$e --iodepth=8 || fail "replay $e"
    [ "$(counts "ib_$e.json")" = "$(counts fio_plain.json)" ] ||
      fail "replay $e: counts $(counts "ib_$e.json"), fio psync $(counts fio_plain.json)"
    diff <(ios fio_plain_clat.1.log) <(ios "ib_${e}_clat.1.log") >/dev/null ||
      fail "replay $e: per-I/O direction/length/offset differ from the log"
  else
    echo "note: $e not usable here, its replay is not compared"
  fi
done
n=$(counts ib_plain.json)
[ "$n" = "45 430080 15 143360 6 8" ] || fail "replay counts $n, want 45 430080 15 143360 6 8"

# The replayed I/O, recorded again, is the log itself (times aside).
"$bin" --name=r --read_iolog=in.log --replay_no_stall=1 --write_iolog=again.log --output=/dev/null ||
  fail "replay with write_iolog"
diff <(notimes in.log) <(notimes again.log) >/dev/null || fail "recorded replay differs from the log"

# Timing honoured: 3 entries 150 ms apart take at least 300 ms (a lower bound
# only: sleeping cannot end early). Stamped from 1: a line after one stamped
# 0 does not wait, as in fio (stamped from 0, fio 3.33 and iobench take 150 ms).
printf 'fio version 3 iolog\n1 %s add\n1 %s open\n1 %s read 0 4096\n150001 %s read 0 4096\n300001 %s read 0 4096\n' \
  "$f" "$f" "$f" "$f" "$f" >slow.log
"$bin" --name=r --read_iolog=slow.log --output-format=json --output=slow.json || fail "slow replay"
python3 - "$tmp/slow.json" <<'EOF' || fail "timed replay ended before its log's 300 ms"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
sys.exit(0 if j["read"]["runtime"] >= 300 else 1)
EOF
# Its add and open stamped 0: the origin is the first line after them, as in
# fio (0 ms for "0 add, 0 open, 300000 read"; iobench used to wait 300 ms).
printf 'fio version 3 iolog\n0 %s add\n0 %s open\n300000 %s read 0 4096\n' "$f" "$f" "$f" >zero.log
"$bin" --name=r --read_iolog=zero.log --output-format=json --output=zero.json || fail "zero replay"
python3 - "$tmp/zero.json" <<'EOF' || fail "a line after one stamped 0 waited (fio does not)"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
# Below the 300 ms the old wait took at least (a sleep never ends early);
# not a tighter bound, which a loaded machine could break.
sys.exit(0 if j["job_runtime"] < 300 else 1)
EOF

# End syncs: after a log's last sync, fio's end_fsync and fsync_on_close do
# not sync again (should_fsync() is false after a sync); iobench used to add
# one. The fsync calls on the data file, counted with strace, equal fio's.
if command -v strace >/dev/null; then
  fio --name=w --filename="$f" --ioengine=psync --rw=write --bs=4k --size=32k --end_fsync=1 \
    --write_iolog=endsync.log --output=/dev/null || fail "fio endsync record"
  # Without the last sync line: a write is last, and the end sync is owed.
  grep -v ' sync ' endsync.log >nosync.log
  fsyncs() {  # tool, then options: fsync/fdatasync calls on $f (strace's lines, streamed)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -y -e trace=fsync,fdatasync "$@" --output=/dev/null 2>&1 >/dev/null |
      grep -c "sync([0-9]*<$f>)"
  }
  for l in endsync nosync; do
    for o in --end_fsync=1 --fsync_on_close=1; do
      [ $l = nosync ] && [ $o = --fsync_on_close=1 ] && continue  # fio syncs at the close line too
      want=$(fsyncs fio --name=r --read_iolog=$l.log --replay_no_stall=1 --ioengine=psync $o)
      got=$(fsyncs "$bin" --name=r --read_iolog=$l.log --replay_no_stall=1 --ioengine=psync $o)
      [ "$got" = "$want" ] || fail "replay $l.log $o: $got fsync calls, fio $want"
    done
  done
else
  echo "note: strace not installed; the end syncs of a replay are not counted"
fi

# --- errors name the log and the line ---
expect_error() {  # log text, expected message part
  printf '%b' "$1" >bad.log
  out=$("$bin" --name=r --read_iolog=bad.log --output=/dev/null 2>&1) && fail "accepted: $1"
  grep -qF -- "$2" <<<"$out" || fail "message for $1: $out"
}
expect_error "fio version 3 iolog\n0 $f add\n1 $f open\n2 $f rd 0 4096\n" \
  "read_iolog bad.log:4: unknown action 'rd'"
expect_error "fio version 3 iolog\n0 $f add\n1 $f open\n2 $f read 0x10 4096\n" \
  "read_iolog bad.log:4: offset '0x10' is not a number"
expect_error "fio version 3 iolog\n0 $f add\n1 $f open\n2 $f read 1048576 4096\n" \
  "read_iolog bad.log:4: an I/O ends at byte 1052672, past the end of $f (1048576 bytes)"
expect_error "\x07\x74\x61\x65\x00\x00\x00\x00" "iobench does not replay blktrace yet"
expect_error "hello\n" "read_iolog bad.log:1: 'hello' is not a fio iolog header"
out=$("$bin" --name=r --read_iolog=in.log --replay_align=3000 --parse-only 2>&1) &&
  fail "replay_align=3000 accepted"
grep -qF "replay_align=3000 is not a power of 2" <<<"$out" || fail "replay_align message: $out"
# 0 too, as fio ("replay_align: must be a power-of-2").
out=$("$bin" --name=r --read_iolog=in.log --replay_align=0 --parse-only 2>&1) &&
  fail "replay_align=0 accepted"
grep -qF "replay_align=0 is not a power of 2" <<<"$out" || fail "replay_align=0 message: $out"
out=$("$bin" --name=r --read_iolog=in.log --verify=crc32c --output=/dev/null 2>&1) &&
  fail "read_iolog with verify accepted"
grep -qF "does not combine with verify" <<<"$out" || fail "verify message: $out"
out=$("$bin" --name=r --read_iolog=in.log --merge_blktrace_file=m --output=/dev/null 2>&1) &&
  fail "merge_blktrace_file accepted"
grep -qF "merge_blktrace_file" <<<"$out" || fail "merge_blktrace_file message: $out"
printf '[r]\nread_iolog=in.log\nwrite_iolog\n' >bare.fio
out=$("$bin" bare.fio --output=/dev/null 2>&1) && fail "bare write_iolog accepted"
grep -qF "bare.fio:3:1: option 'write_iolog': write_iolog needs a file name" <<<"$out" ||
  fail "bare write_iolog message: $out"
out=$("$bin" --name=r --ioengine=null --size=8k --write_iolog="$tmp/no/such/dir.log" \
  --output=/dev/null 2>&1) && fail "write_iolog into a missing directory accepted"
grep -qF "job 'r': write_iolog=$tmp/no/such/dir.log (<cmdline>): open log file $tmp/no/such/dir.log: No such file or directory" \
  <<<"$out" || fail "write_iolog open message: $out"
# sync_file_range is recorded as fio records it (the last write's offset,
# length 0), and replayed as the job issued it (tests/e2e/replay_sync_range.sh).
"$bin" --name=s --ioengine=psync --rw=write --bs=4k --size=32k --filename="$tmp/sfr.dat" \
  --sync_file_range=write:4 --write_iolog=sfr.log --output=/dev/null || fail "sfr record run"
[ "$(grep -c ' sync_file_range ' sfr.log)" = 1 ] || fail "sfr log: $(cat sfr.log)"
grep -qE "^[0-9]+ $tmp/sfr.dat sync_file_range 12288 0\$" sfr.log || fail "sfr line: $(cat sfr.log)"
out=$("$bin" --name=r --read_iolog=sfr.log --output-format=json 2>&1) || fail "sfr replay: $out"
python3 -c 'import json,sys; assert json.load(sys.stdin)["jobs"][0]["sync"]["lat_ns"]["N"] == 1' \
  <<<"$out" || fail "sfr replay: not one sync_file_range: $out"
# fio's t0038: 2 GiB trims between 4 KiB writes, replayed at iodepth 128 on
# the null engine. A trim carries no data: the buffers are sized by the
# writes (the trims' 2 GiB used to ask for 256 GiB of buffers and be refused).
{
  echo "fio version 2 iolog"
  echo "/dev/null add"
  echo "/dev/null open"
  for i in 0 1 2 3 4 5 6 7 8 9; do
    echo "/dev/null trim $((i * 2147483648)) 2147483648"
    echo "/dev/null write $((i * 4096)) 4096"
  done
  echo "/dev/null close"
} >bigtrim.log
"$bin" --name=t --read_iolog=bigtrim.log --ioengine=null --iodepth=128 --output-format=json \
  >bigtrim.json 2>bigtrim.err || fail "big trims replay: exit $?: $(cat bigtrim.err)"
[ -s bigtrim.err ] && fail "big trims replay: stderr: $(cat bigtrim.err)"
python3 - bigtrim.json <<'PY' || fail "big trims replay counts"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
assert j["error"] == 0, j["error"]
assert j["write"]["total_ios"] == 10 and j["write"]["io_bytes"] == 40960, j["write"]
assert j["trim"]["total_ios"] == 10 and j["trim"]["io_bytes"] == 10 * 2147483648, j["trim"]
PY

# A file name with a blank (here from the job name: "rand read.0.0") makes a
# log whose lines split wrongly: fio writes it silently; iobench runs, and
# warns once (not per clone) that nothing can replay it.
"$bin" --name='rand read' --directory="$tmp" --ioengine=psync --size=16k --numjobs=2 \
  --write_iolog=blank.log --output-format=json >blank.json 2>blank.err ||
  fail "blank name: exit $?: $(cat blank.err)"
[ "$(grep -c "warning: job 'rand read': write_iolog=blank.log: the file name '$tmp/rand read.0.0' holds a blank" blank.err)" = 1 ] ||
  fail "blank name: want one warning: $(cat blank.err)"
"$bin" --name=plain --directory="$tmp" --ioengine=psync --size=16k --write_iolog=plain.log \
  --output-format=json >plain.json 2>plain.err || fail "plain name: exit $?"
[ -s plain.err ] && fail "plain name: stderr: $(cat plain.err)"
echo ok
