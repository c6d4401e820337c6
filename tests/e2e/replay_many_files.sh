#!/usr/bin/env bash
# read_iolog of a log over more files than RLIMIT_NOFILE allows open at once
# (docs/replay.md): the replay opens and closes the files as the log's
# "open" and "close" lines say, as fio does, so it runs under `ulimit -n 64`
# with 100 files, each opened, written and closed in turn (iobench used to
# keep every file of the log open and refuse the run: "the jobs need 116
# file descriptors but RLIMIT_NOFILE is 64").
source "$(dirname "$0")/setup.bash"

n=100
{
  echo "fio version 3 iolog"
  for i in $(seq 0 $((n - 1))); do echo "0 $tmp/m.$i add"; done
  t=1
  for i in $(seq 0 $((n - 1))); do
    echo "$t $tmp/m.$i open"
    echo "$t $tmp/m.$i write 0 4096"
    echo "$t $tmp/m.$i write 4096 4096"
    echo "$t $tmp/m.$i close"
    t=$((t + 1))
  done
} >many.log
for i in $(seq 0 $((n - 1))); do truncate -s 8k "m.$i"; done

counts() {  # JSON on stdin: write I/Os, bytes, error
  python3 -c 'import json,sys
j = json.load(sys.stdin)["jobs"][0]
print(j["write"]["total_ios"], j["write"]["io_bytes"], j["error"])'
}
for eng in psync libaio io_uring; do
  "$bin" --list-engines 2>/dev/null | grep -qw "$eng" || continue
  out=$(ulimit -n 64 && "$bin" --name=r --read_iolog=many.log --ioengine=$eng --iodepth=4 \
    --output-format=json 2>err) || {
    fail "$eng: replay of $n files under ulimit -n 64: $(head -3 err)"
    continue
  }
  expect_eq "$eng: writes, bytes, error of the $n-file replay under ulimit -n 64" \
    "$(counts <<<"$out")" "$((2 * n)) $((8192 * n)) 0"
done

# io_uring's registered files keep every file of the log open, so the run
# needs 100 descriptors: the refusal says why and that without the option
# the replay would follow the log (it used to give only the count).
if "$bin" --list-engines 2>/dev/null | grep -qw io_uring; then
  for opt in registerfiles sqthread_poll; do
    (ulimit -n 64 && "$bin" --name=r --read_iolog=many.log --ioengine=io_uring --$opt=1 \
      --output=/dev/null 2>err) && fail "$opt=1: ran under ulimit -n 64"
    why="keeps all $n files of its read_iolog open for the run, as $opt=1 at <cmdline>"
    why+=" registers them with io_uring; without it the replay would open and close them"
    why+=" as the log's lines say"
    grep -qF "$why" err && echo "ok   $opt=1: the refusal names the option" ||
      fail "$opt=1: the refusal does not say why: $(head -3 err)"
  done
fi

# A log that itself holds all 100 files open at once needs 100 descriptors:
# the refusal says the count is the log's (it gave the count alone).
{
  echo "fio version 3 iolog"
  for i in $(seq 0 $((n - 1))); do echo "0 $tmp/m.$i add"; done
  for i in $(seq 0 $((n - 1))); do echo "1 $tmp/m.$i open"; done
  for i in $(seq 0 $((n - 1))); do echo "1 $tmp/m.$i write 0 4096"; done
  for i in $(seq 0 $((n - 1))); do echo "2 $tmp/m.$i close"; done
} >all.log
(ulimit -n 64 && "$bin" --name=r --read_iolog=all.log --output=/dev/null 2>err) &&
  fail "a log holding $n files open ran under ulimit -n 64"
why="(job 'r' holds up to $n files open at once, as the 'open' and 'close' lines of its"
why+=" read_iolog=all.log at <cmdline> do; the replay opens and closes them as the log says)"
grep -qF "$why" err && echo "ok   the refusal says the count is the log's" ||
  fail "the refusal of a log holding $n files open does not say why: $(head -3 err)"

# The files open at once: never more than the log holds open (one here).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  strace -f -qq -e trace=openat,close -o st "$bin" --name=r --read_iolog=many.log \
    --ioengine=psync --output=/dev/null
  most=$(awk -v d="$tmp/m." '
    /openat\(/ && index($0, d) && $NF >= 0 { fd[$1 " " $NF] = 1; open++; if (open > most) most = open }
    /close\(/ { split($0, a, /[()]/); k = $1 " " a[2]; if (k in fd) { delete fd[k]; open-- } }
    END { print most + 0 }' st)
  expect_eq "the most log files open at once" "$most" 1
fi

# fsync_on_close=1: each close line syncs the file it closes, unless the
# log's last entry was a sync, and the job's end syncs each file again, as
# fio 3.33's put_file and should_fsync do: 3 + 3 fsyncs, and with a sync
# line before the first close that line's fsync instead of the close's
# (6 in fio on both logs; syncing at every close would give 7). iobench
# synced at the end only (3, and 4).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  for withsync in 0 1; do
    {
      echo "fio version 3 iolog"
      for k in 0 1 2; do echo "1 $tmp/c.$k add"; done
      for k in 0 1 2; do
        echo "1 $tmp/c.$k open"
        echo "1 $tmp/c.$k write 0 4096"
        echo "1 $tmp/c.$k write 4096 4096"
        [ "$withsync" = 1 ] && [ "$k" = 0 ] && echo "1 $tmp/c.$k sync 0 0"
        echo "1 $tmp/c.$k close"
      done
    } >close.log
    # (LeakSanitizer cannot run under ptrace: off for the ASan build.)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=fsync -o fst "$bin" --name=r --read_iolog=close.log --size=24k \
      --ioengine=psync --fsync_on_close=1 --output=/dev/null 2>err || fail "close syncs: $(cat err)"
    expect_eq "fsync_on_close: fsyncs of a 3-file replay (a sync line before the first close: $withsync)" \
      "$(grep -c '^[0-9]* *fsync(' fst)" 6
  done
fi

# A recording of the replay gives the log's file lines back.
"$bin" --name=r --read_iolog=many.log --write_iolog=rr.log --output=/dev/null ||
  fail "record of the replay"
expect_eq "the replay's record of the files' open and close lines" \
  "$(awk 'NR > 1 && ($3 == "open" || $3 == "close") {print $2, $3}' rr.log | md5sum)" \
  "$(awk 'NR > 1 && ($3 == "open" || $3 == "close") {print $2, $3}' many.log | md5sum)"

# fio's own record of such a job (openfiles=4 over 100 files), when fio is installed.
if command -v fio >/dev/null; then
  mkdir fio_dir
  fio --name=m --directory="$tmp/fio_dir" --nrfiles=$n --filesize=8k --bs=4k --rw=write \
    --ioengine=psync --file_service_type=sequential --openfiles=4 --write_iolog=fio.log \
    --output=/dev/null >/dev/null 2>&1 || fail "fio could not record"
  out=$(ulimit -n 64 && "$bin" --name=r --read_iolog=fio.log --output-format=json 2>err) ||
    fail "replay of fio's $n-file log under ulimit -n 64: $(head -3 err)"
  expect_eq "fio's $n-file log: writes, bytes, error" "$(counts <<<"$out")" \
    "$((2 * n)) $((8192 * n)) 0"
fi

[ "$fails" -eq 0 ]
