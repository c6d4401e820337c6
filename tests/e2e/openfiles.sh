#!/bin/bash
# openfiles=N below the job's file count (docs/patterns.md, "Open files"):
# at most N files are open at once, the file service opens a file when its
# turn comes and closes it when its pass is over, as fio 3.33 does. Checked
# from write_iolog's add/open/close lines, which fio writes the same way
# (the sequences below are fio 3.33's, and fio runs them too when installed):
#  - the exact open/close/I/O sequence for round robin, sequential, loops
#    with end_fsync, fsync=N, io_size and number_ios;
#  - per-file I/O counts equal to openfiles=0's, and never more than N files
#    open, for random file service on every engine (psync, pvsync2, libaio
#    and io_uring at iodepth 8, mmap, null), numjobs=2 and filename=a:b:c:d;
#  - time_based randread keeps the first N files (fio resets them in place);
#  - combinations that cannot work are refused naming the option.
# The old binary refused openfiles below nrfiles outright.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

# trace TOOL ARGS...: runs a job with write_iolog over $tmp/d and prints its
# log in shorthand: o<file>/c<file> for open/close, <r|w|s><file>:<block>
# for I/O (4k blocks). Files are numbered by their name's last field.
trace() {
  local tool=$1
  shift
  rm -rf "$tmp/d" && mkdir "$tmp/d"
  "$(cmd "$tool")" --name=j --directory="$tmp/d" --bs=4k --write_iolog="$tmp/d/log" "$@" \
    --output=/dev/null >/dev/null 2>"$tmp/err" || { echo "failed: $(head -c 300 "$tmp/err")"; return; }
  awk '{ n = split($2, a, "[.:/]"); f = a[n] }
    $3 == "open" { printf "o%s ", f } $3 == "close" { printf "c%s ", f }
    $3 == "read" || $3 == "write" || $3 == "sync" { printf "%s%s:%d ", substr($3, 1, 1), f, $4 / 4096 }
    END { print "" }' "$tmp/d/log" | sed 's/ $//'
}

# summary: from the last run's log, "max=<files one clone had open at
# once> opens=<opens> bad=<I/Os to a file not open, closes of one not open>
# <file>=<I/Os> ..." (files by their name's last path component).
summary() {
  local log=$tmp/d/log
  awk '{ k = $2; sub(/\.[^.]*$/, "", k) }  # the clone: the name without its file number
    $3 == "open" { if (open[$2]++) bad++; n[k]++; if (n[k] > max) max = n[k]; opens++ }
    $3 == "close" { if (!open[$2]) bad++; open[$2] = 0; n[k]-- }
    $3 == "read" || $3 == "write" { if (!open[$2]) bad++ }
    END { printf "max=%d opens=%d bad=%d", max, opens, bad }' "$log"
  awk '$3 == "read" || $3 == "write" { c[$2]++ }
    END { for (f in c) { m = split(f, a, "/"); print a[m] "=" c[f] } }' "$log" | sort |
    while read -r line; do printf ' %s' "$line"; done
  echo
}

rr="o0 r0:0 o1 r1:0 r0:1 r1:1 r0:2 r1:2 r0:3 r1:3 c0 c1 o2 r2:0 o3 r3:0 r2:1 r3:1 r2:2 r3:2 r2:3 r3:3 c2 c3"
seq="o0 r0:0 r0:1 r0:2 r0:3 c0 o1 r1:0 r1:1 r1:2 r1:3 c1 o2 r2:0 r2:1 r2:2 r2:3 c2 o3 r3:0 r3:1 r3:2 r3:3 c3"
loops="o0 w0:0 o1 w1:0 w0:1 w1:1 c0 c1 o2 w2:0 o3 w3:0 w2:1 w3:1 c2 c3 o0 s0:1 c0 o1 s1:1 c1 o2 s2:1 c2 o3 s3:1 c3"
loops="$loops o0 w0:0 o1 w1:0 w0:1 w1:1 c0 c1 o2 w2:0 o3 w3:0 w2:1 w3:1 o0 s0:1 c0 o1 s1:1 c1 s2:1 s3:1 c2 c3"
fsync="o0 w0:0 o1 w1:0 w0:1 s1:1 c0 w1:1 o2 w2:0 c1 w2:1 o3 s3:1 c2 w3:0 w3:1 c3"
for t in $(tools); do
  for e in psync "io_uring --iodepth=4"; do
    expect_eq "$t $e: round robin, 4 files, 2 open" \
      "$(trace "$t" --ioengine=$e --rw=read --size=64k --nrfiles=4 --openfiles=2)" "$rr"
  done
  expect_eq "$t: sequential service" "$(trace "$t" --ioengine=psync --rw=read --size=64k \
    --nrfiles=4 --openfiles=2 --file_service_type=sequential)" "$seq"
  # Without openfiles too: fio opens each file as it comes to it and closes it
  # when it is done (iobench opened them all at the start).
  for e in psync "io_uring --iodepth=4"; do
    expect_eq "$t $e: sequential service, no openfiles" "$(trace "$t" --ioengine=$e --rw=read \
      --size=64k --nrfiles=4 --file_service_type=sequential)" "$seq"
  done
  expect_eq "$t: sequential service, two files" "$(trace "$t" --ioengine=psync --rw=read \
    --size=32k --nrfiles=2 --file_service_type=sequential)" \
    "o0 r0:0 r0:1 r0:2 r0:3 c0 o1 r1:0 r1:1 r1:2 r1:3 c1"
  expect_eq "$t: three files, two open" "$(trace "$t" --ioengine=psync --rw=read --size=24k \
    --nrfiles=3 --openfiles=2)" "o0 r0:0 o1 r1:0 r0:1 r1:1 c0 c1 o2 r2:0 r2:1 c2"
  expect_eq "$t: loops=2 end_fsync=1" "$(trace "$t" --ioengine=psync --rw=write --size=32k \
    --nrfiles=4 --openfiles=2 --loops=2 --end_fsync=1)" "$loops"
  expect_eq "$t: fsync=3 takes the file service's turn" "$(trace "$t" --ioengine=psync \
    --rw=write --size=32k --nrfiles=4 --openfiles=2 --fsync=3)" "$fsync"
  # The job's bytes run out on the open files first: 4 4 1 1, not 3 3 2 2.
  trace "$t" --ioengine=psync --rw=write --size=64k --nrfiles=4 --openfiles=2 --io_size=40k >/dev/null
  expect_eq "$t: io_size=40k" "$(summary)" "max=2 opens=4 bad=0 j.0.0=4 j.0.1=4 j.0.2=1 j.0.3=1"
  trace "$t" --ioengine=psync --rw=read --size=64k --nrfiles=4 --openfiles=2 --number_ios=7 >/dev/null
  expect_eq "$t: number_ios=7" "$(summary)" "max=2 opens=2 bad=0 j.0.0=4 j.0.1=3"
  # time_based random: the open files start over in place and stay open.
  trace "$t" --ioengine=psync --rw=randread --size=32k --nrfiles=4 --openfiles=2 \
    --time_based --runtime=200ms --rate_iops=100 >/dev/null
  # fio's side of this one is timed: on a loaded machine (a CI run, other
  # builds) fio 3.33 sometimes moves on to a third file within the 200 ms,
  # so only iobench's is asserted and fio's is shown.
  if [ "$t" = fio ]; then
    echo "info: fio time_based randread: $(summary)"
    continue
  fi
  expect_eq "$t: time_based randread keeps files 0 and 1" \
    "$(summary | sed 's/=[0-9]*//g')" "max opens bad j.0.0 j.0.1"
  expect_eq "$t: time_based randread opens two" "$(summary | cut -d' ' -f1-3)" \
    "max=2 opens=2 bad=0"
done

# Random file service on every engine: each file gets its 8 blocks, as with
# openfiles=0, and never more than 3 of the 10 files are open.
want="max=3 opens=10 bad=0"
for i in 0 1 2 3 4 5 6 7 8 9; do want="$want j.0.$i=8"; done
for e in psync pvsync2 "libaio --iodepth=8" "io_uring --iodepth=8" mmap null; do
  for rw in randread read write; do
    trace iob --ioengine=$e --rw=$rw --size=320k --nrfiles=10 --openfiles=3 \
      --file_service_type=random >/dev/null
    expect_eq "$e $rw random service" "$(summary)" "$want"
    trace iob --ioengine=$e --rw=$rw --size=320k --nrfiles=10 --file_service_type=random >/dev/null
    expect_eq "$e $rw openfiles=0 counts" "$(summary | cut -d' ' -f4-)" \
      "$(cut -d' ' -f4- <<<"$want")"
  done
done
trace iob --ioengine=psync --rw=randwrite --size=64k --nrfiles=4 --openfiles=2 --numjobs=2 \
  --file_service_type=random:2 >/dev/null
expect_eq "numjobs=2: each clone its own slots" "$(summary)" \
  "max=2 opens=8 bad=0 j.0.0=4 j.0.1=4 j.0.2=4 j.0.3=4 j.1.0=4 j.1.1=4 j.1.2=4 j.1.3=4"
rm -rf "$tmp/d" && mkdir "$tmp/d"
"$bin" --name=j --filename="$tmp/d/a:$tmp/d/b:$tmp/d/c:$tmp/d/d" --ioengine=psync --bs=4k \
  --rw=write --size=64k --openfiles=1 --write_iolog="$tmp/d/log" --output=/dev/null 2>"$tmp/err" ||
  fail "filename=a:b:c:d openfiles=1: $(cat "$tmp/err")"
expect_eq "filename=a:b:c:d openfiles=1" "$(summary)" "max=1 opens=4 bad=0 a=4 b=4 c=4 d=4"

# The descriptors themselves: strace sees at most 3 of the job's files open
# at once, iodepth 16 included (a file closes once its I/O has completed).
if command -v strace >/dev/null; then
  for e in psync "libaio --iodepth=16" "io_uring --iodepth=16" mmap; do
    rm -rf "$tmp/d" && mkdir "$tmp/d"
    # (LeakSanitizer cannot run under ptrace: the asan build turns it off here.)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=openat,close -o "$tmp/strace" "$bin" --name=j --directory="$tmp/d" \
      --bs=4k --ioengine=$e --rw=randread --size=1m --nrfiles=8 --openfiles=3 \
      --file_service_type=random --output=/dev/null 2>"$tmp/err" || fail "strace $e: $(cat "$tmp/err")"
    got=$(awk '/openat\(.*\/j\.0\.[0-9]+"/ && / = [0-9]+$/ { fd[$NF] = 1; n++; if (n > m) m = n; next }
      /close\([0-9]+\)/ { x = $0; sub(/.*close\(/, "", x); sub(/\).*/, "", x); if (x in fd) { delete fd[x]; n-- } }
      END { print m }' "$tmp/strace")
    expect_eq "$e: at most 3 descriptors open" "$got" 3
  done
else
  echo "skip descriptor count: strace is not installed"
fi

# file_service_type=sequential without openfiles holds at most 2 of the
# job's files open (the next opens while the last one's I/O completes): a
# job of 300 files runs under ulimit -n 64, as in fio (iobench needed 300
# descriptors and refused it). With a verify read-back every file stays open.
for e in psync "libaio --iodepth=16" "io_uring --iodepth=16"; do
  rm -rf "$tmp/d" && mkdir "$tmp/d"
  out=$(ulimit -n 64 && "$bin" --name=j --directory="$tmp/d" --bs=1k --ioengine=$e --rw=write \
    --size=300k --nrfiles=300 --file_service_type=sequential --output-format=terse 2>&1)
  expect_eq "$e: sequential service, 300 files under ulimit -n 64: error, KiB written" \
    "$(cut -d';' -f5,47 <<<"$out")" "0;300"
  if command -v strace >/dev/null; then
    rm -rf "$tmp/d" && mkdir "$tmp/d"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      strace -f -qq -e trace=openat,close -o "$tmp/strace" "$bin" --name=j --directory="$tmp/d" \
      --bs=4k --ioengine=$e --rw=randread --size=512k --nrfiles=8 --file_service_type=sequential \
      --output=/dev/null 2>"$tmp/err" || fail "strace sequential $e: $(cat "$tmp/err")"
    got=$(awk '/openat\(.*\/j\.0\.[0-9]+"/ && / = [0-9]+$/ { fd[$NF] = 1; n++; if (n > m) m = n; next }
      /close\([0-9]+\)/ { x = $0; sub(/.*close\(/, "", x); sub(/\).*/, "", x); if (x in fd) { delete fd[x]; n-- } }
      END { print (m >= 1 && m <= 2) ? "1-2" : m }' "$tmp/strace")
    expect_eq "$e: sequential service, descriptors open at once" "$got" "1-2"
  fi
done
rm -rf "$tmp/d" && mkdir "$tmp/d"
out=$(ulimit -n 64 && "$bin" --name=j --directory="$tmp/d" --bs=1k --ioengine=psync --rw=write \
  --size=300k --nrfiles=300 --file_service_type=sequential --verify=crc32c --output=/dev/null 2>&1)
grep -q "file descriptors but RLIMIT_NOFILE is 64" <<<"$out" ||
  fail "sequential service with verify: every file stays open: $out"

# Refused, naming the option and where it is set.
refused() {  # NAME PATTERN ARGS...
  local name=$1 pat=$2
  shift 2
  if "$bin" --name=j --directory="$tmp" --size=64k --nrfiles=4 --openfiles=2 "$@" \
    --output=/dev/null >/dev/null 2>"$tmp/err"; then
    fail "$name: ran"
  elif grep -q -- "$pat" "$tmp/err"; then
    echo "ok   $name refused"
  else
    fail "$name: $(cat "$tmp/err")"
  fi
}
refused "registerfiles" "openfiles=2 (<cmdline>) below its 4 files is not supported with io_uring registerfiles=1" \
  --ioengine=io_uring --registerfiles=1
refused "sqthread_poll" "is not supported with io_uring sqthread_poll=1" --ioengine=io_uring --sqthread_poll=1
refused "verify" "is not supported with verify" --ioengine=psync --rw=write --verify=crc32c
refused "verify_backlog" "is not supported with verify" --ioengine=psync --rw=write \
  --verify=crc32c --do_verify=0 --verify_backlog=4
# The write_iolog's times never go back (a close was stamped when it
# happened, the next open with its batch's earlier time: 4-6 times here).
rm -f "$tmp"/j.* "$tmp/mono.log"
"$bin" --name=j --directory="$tmp" --nrfiles=10 --openfiles=3 --size=320k --loops=2 --rw=write \
  --ioengine=psync --write_iolog="$tmp/mono.log" >/dev/null 2>&1 || fail "monotonic log: run failed"
back=$(awk '$1 ~ /^[0-9]+$/ { if (seen && $1 < last) n++; last = $1; seen = 1 } END { print n + 0 }' \
  "$tmp/mono.log")
expect_eq "write_iolog times that go back" "$back" 0
# verify with do_verify=0 only writes the headers: it runs under the limit
# (fio runs it too), and a later verify_only run finds them right.
rm -f "$tmp"/j.*
if out=$("$bin" --name=j --directory="$tmp" --size=64k --nrfiles=4 --openfiles=2 --rw=write \
  --verify=crc32c --do_verify=0 --output-format=terse 2>&1); then
  expect_eq "verify do_verify=0 under openfiles: KiB written" "$(cut -d';' -f47 <<<"$out")" 64
  out=$("$bin" --name=j --directory="$tmp" --size=64k --nrfiles=4 --rw=read --verify=crc32c \
    --verify_only=1 --output-format=terse 2>&1)
  expect_eq "verify_only after it: error, bytes read" "$(cut -d';' -f5,6 <<<"$out")" "0;64"
else
  fail "verify do_verify=0 under openfiles: $out"
fi
[ "$fails" -eq 0 ]
