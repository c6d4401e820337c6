#!/usr/bin/env bash
# read_iolog without fio (docs/replay.md): what a replay leaves on disk, what
# it reads of a log, which jobs may record and replay one log, and how its
# errors quote the log.
source "$(dirname "$0")/setup.bash"

# --- size= lays out missing files; an existing file keeps its size ---
head -c 16k /dev/urandom >f2
sum=$(md5sum <f2)
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s close\n' \
  "$tmp/f2" "$tmp/f2" "$tmp/f2" "$tmp/f2" >f2.log
out=$("$bin" --name=r --read_iolog=f2.log --size=1m 2>&1) || fail "read-only replay with size=: $out"
expect_eq "read replay with size= keeps an existing file's size" "$(stat -c %s f2)" 16384
expect_eq "read replay with size= leaves an existing file's data" "$(md5sum <f2)" "$sum"
case $out in *"Laying out"*) fail "read replay with size= laid out an existing file: $out" ;; esac
# A missing file is still laid out to size=.
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 8192 4096\n%s close\n' \
  "$tmp/f3" "$tmp/f3" "$tmp/f3" "$tmp/f3" >f3.log
"$bin" --name=r --read_iolog=f3.log --size=64k >/dev/null 2>&1 || fail "replay lays out a missing file"
expect_eq "size= lays out a missing file" "$(stat -c %s f3 2>/dev/null)" 65536
# An I/O past an existing file's end is refused, size= or not.
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 20480 4096\n%s close\n' \
  "$tmp/f2" "$tmp/f2" "$tmp/f2" "$tmp/f2" >past.log
out=$("$bin" --name=r --read_iolog=past.log --size=1m 2>&1) && fail "a read past an existing file's end ran"
case $out in *"past.log:4: an I/O ends at byte 24576, past the end of $tmp/f2 (16384 bytes)"*) ;;
  *) fail "past the end with size=: $out" ;; esac
expect_eq "a refused replay keeps the file's size" "$(stat -c %s f2)" 16384
# On a read-only mount (root only): a replay that reads opens nothing for writing.
if [ "$(id -u)" = 0 ] && mkdir ro && mount -t tmpfs -o size=1m tmpfs ro 2>/dev/null; then
  head -c 16k /dev/urandom >ro/f
  mount -o remount,ro ro
  printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s close\n' \
    "$tmp/ro/f" "$tmp/ro/f" "$tmp/ro/f" "$tmp/ro/f" >ro.log
  out=$("$bin" --name=r --read_iolog=ro.log --size=1m 2>&1 >/dev/null) ||
    fail "read replay with size= on a read-only mount: $out"
  umount ro
fi

# --- the replay stops where the check pass stopped reading the log ---
# Job a appends lines to b's log after the check (exec_prerun runs at a's
# start, in b's phase: a job of an earlier phase with an exec command defers
# b's check to its phase's start): a write (b opens g read-only), a read past
# g's end, an un-added file.
head -c 16k /dev/zero >g
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n' "$tmp/g" "$tmp/g" "$tmp/g" >g.log
cat >g.fio <<JOB
[a]
ioengine=null
size=4k
exec_prerun=sh -c 'printf "$tmp/g write 0 4096\\n$tmp/g read 99999999999 4096\\n$tmp/h read 0 4096\\n" >>$tmp/g.log'
[b]
read_iolog=$tmp/g.log
JOB
err=$("$bin" g.fio --output-format=json --output=g.json 2>&1)
expect_eq "a replay ignores lines appended after the check (exit status)" "$?" 0
expect_eq "a replay ignores lines appended after the check (stderr)" "$err" ""
expect_eq "lines were appended" "$(wc -l <g.log)" 7
expect_eq "the replay issued the checked read alone" \
  "$(python3 -c 'import json,sys; j=json.load(open("g.json"))["jobs"][1]; print(j["read"]["total_ios"], j["write"]["total_ios"])')" "1 0"

# --- messages quoting the log escape its control characters ---
esc=$(printf '\033[31m')
bad() {  # NAME WANT, the log's lines after the header on stdin
  { echo 'fio version 3 iolog'; cat; } >bad.log
  local out
  out=$("$bin" --name=r --read_iolog=bad.log --ioengine=psync 2>&1 >/dev/null) && fail "$1: ran"
  case $out in *"$2"*) echo "ok   $1" ;; *) fail "$1: got '$out', want '$2'" ;; esac
  case $out in *"$esc"*) fail "$1: raw escape sequence in '$out'" ;; esac
}
printf '0 %s add\n1 %s %sopen\n' "$tmp/g" "$tmp/g" "$esc" |
  bad "an unknown file action" "bad.log:3: unknown file action '\\x1b[31mopen'"
printf '0 %s add\n1%s %s open\n' "$tmp/g" "$esc" "$tmp/g" |
  bad "a timestamp" "bad.log:3: timestamp '1\\x1b[31m' is not a number"
printf '0 %s/%sRED add\n1 %s/%sRED open\n2 %s/%sRED read 0 4096\n' "$tmp" "$esc" "$tmp" "$esc" "$tmp" "$esc" |
  bad "a missing file" "$tmp/\\x1b[31mRED does not exist"

# The header line too: NUL and binary bytes escaped as \x00, \xff (they
# showed as '?', unlike the other lines' control characters).
hdr() {  # NAME WANT: the header on stdin
  cat >hdr.log
  local out
  out=$("$bin" --name=r --read_iolog=hdr.log --ioengine=psync 2>&1 >/dev/null) && fail "$1: ran"
  case $out in *"$2"*) echo "ok   $1" ;; *) fail "$1: got '$out', want '$2'" ;; esac
}
printf 'fio version 3 iolog\0\n' | hdr "a NUL in the header" \
  "hdr.log:1: 'fio version 3 iolog\\x00' is not a fio iolog header"
printf '\x01\xfe\xff\x7f\n' | hdr "a binary header" "hdr.log:1: '\\x01\\xfe\\xff\\x7f' is not a fio iolog header"

# --- errors about a file of the log name the line that adds it ---
printf '0 %s/nonex add\n1 %s/nonex open\n2 %s/nonex read 0 4096\n' "$tmp" "$tmp" "$tmp" |
  bad "a missing file's line" "bad.log:2: $tmp/nonex does not exist"
printf '0 /dev/zero add\n1 /dev/zero open\n2 /dev/zero read 0 4096\n' |
  bad "a character device's line" "bad.log:2: target /dev/zero is a character device"
mkdir -p adir
printf '0 %s/adir add\n1 %s/adir open\n2 %s/adir read 0 4096\n' "$tmp" "$tmp" "$tmp" |
  bad "a directory's line" "bad.log:2: target $tmp/adir is a directory"
printf '0 %s add\n1 %s open\n2 %s read 99999999999999999999999 4096\n' "$tmp/g" "$tmp/g" "$tmp/g" |
  bad "an offset out of range" "bad.log:4: offset '99999999999999999999999' is out of range"

# --- record, then replay in a later phase (stonewall), as fio runs it ---
rec_job() {  # the replaying job's extra lines
  cat <<JOB
[a]
filename=$tmp/seq
size=32k
rw=write
bs=4k
write_iolog=$tmp/seq.log
[b]
$1
read_iolog=$tmp/seq.log
JOB
}
rm -f seq seq.log
rec_job stonewall >rr.fio
err=$("$bin" rr.fio --output-format=json --output=rr.json 2>&1)
expect_eq "record then replay after a stonewall (exit status)" "$?" 0
expect_eq "record then replay after a stonewall (stderr)" "$err" ""
expect_eq "record then replay after a stonewall (writes of a, b)" \
  "$(python3 -c 'import json; print(*[j["write"]["total_ios"] for j in json.load(open("rr.json"))["jobs"]])' 2>&1)" "8 8"
# A log recorded by the first phase and found malformed when the last
# starts (the middle phase appends a bad line): that job fails alone with
# EINVAL (fio: err=22), naming its read_iolog line and the log's; the first
# phases are reported, x (the replaying job's phase mate, listed first) runs
# as in fio, and the run exits 1. The error was put on x, which was listed
# as a clean run of no I/O, and stderr named job b twice.
rm -f seq seq.log
{ rec_job stonewall | sed '/^\[b\]/,$d'
  printf '[m]\nstonewall\nioengine=null\nsize=4k\nexec_postrun=sh -c "echo 1 2 3 >>%s/seq.log"\n' "$tmp"
  printf '[x]\nstonewall\nioengine=null\nsize=8k\n'
  printf '[b]\nread_iolog=%s/seq.log\n' "$tmp"; } >rrbad.fio
err=$("$bin" rrbad.fio --output-format=json --output=rrbad.json 2>&1)
expect_eq "a bad log in a later phase (exit status)" "$?" 1
expect_eq "a bad log in a later phase (stderr)" "$err" \
  "iobench: job 'b': err=22 (rrbad.fio:17: read_iolog $tmp/seq.log:13: unknown file action '3' (add, open, close))"
expect_eq "a bad log in a later phase (errors; writes of a; reads of x)" \
  "$(python3 -c 'import json; j=json.load(open("rrbad.json"))["jobs"]; print([x["jobname"] for x in j], j[0]["error"], j[2]["error"], j[3]["error"], j[0]["write"]["total_ios"], j[2]["read"]["total_ios"])' 2>&1)" \
  "['a', 'm', 'x', 'b'] 0 0 22 8 2"
# A log of a file that is not there, found when a later phase starts: the
# message names the read_iolog= line in the job file, as the same error
# before the run does (it named only the log's line).
rm -f gone gone.log
printf '[a]\nioengine=psync\nrw=write\nsize=8k\nfilename=%s/gone\nwrite_iolog=%s/gone.log\n' \
  "$tmp" "$tmp" >gone.fio
printf 'exec_postrun=rm %s/gone\n[g]\nstonewall\nread_iolog=%s/gone.log\n' "$tmp" "$tmp" >>gone.fio
err=$("$bin" gone.fio --output=/dev/null 2>&1)
expect_eq "a missing file in a later phase's log (exit status)" "$?" 1
expect_eq "a missing file in a later phase's log (stderr)" "$err" \
  "iobench: job 'g': err=22 (gone.fio:10: read_iolog $tmp/gone.log:2: $tmp/gone does not exist; iobench replays onto existing files and devices (create it, or set size= to lay it out))"
printf '[g]\nread_iolog=%s/gone.log\n' "$tmp" >gone1.fio
err=$("$bin" gone1.fio --output=/dev/null 2>&1)
expect_eq "a missing file in a first phase's log" "$err" \
  "iobench: job 'g' (gone1.fio:2): read_iolog $tmp/gone.log:2: $tmp/gone does not exist; iobench replays onto existing files and devices (create it, or set size= to lay it out)"
# A log an earlier phase's exec_postrun writes is read when its phase
# starts, as fio reads it when the job starts (it was refused before the
# run as missing); when the command does not make it, that job fails alone.
rm -f mk.log && truncate -s 64k mkf
{ printf '[a]\nioengine=null\nsize=4k\nexec_postrun=sh -c "printf %s > %s/mk.log"\n' \
  "'fio version 2 iolog\\\\n$tmp/mkf add\\\\n$tmp/mkf open\\\\n$tmp/mkf read 0 4096\\\\n'" "$tmp"
  printf '[b]\nstonewall\nioengine=psync\nread_iolog=%s/mk.log\n' "$tmp"; } >mk.fio
out=$("$bin" mk.fio --output-format=terse 2>&1)
expect_eq "a log made by an earlier exec_postrun: b's error and KiB read" \
  "$(grep '^3;[^;]*;b;' <<<"$out" | cut -d';' -f5,6)" "0;4"
rm -f mk.log
sed -i 's/sh -c "printf/sh -c "true || printf/' mk.fio
out=$("$bin" mk.fio --output-format=terse 2>"$tmp/mkerr")
expect_eq "a log an earlier exec_postrun does not make (exit status)" "$?" 1
expect_eq "a log an earlier exec_postrun does not make: a's and b's errors" \
  "$(cut -d';' -f3,5 <<<"$out" | tr '\n' ' ')" "a;0 b;2 "
expect_eq "a log an earlier exec_postrun does not make (stderr)" "$(cat "$tmp/mkerr")" \
  "iobench: job 'b': err=2 (mk.fio:8: read_iolog: open $tmp/mk.log: No such file or directory)"
# A log that exists before the run and that an earlier phase's exec_postrun
# rewrites: the replay reads the new lines, as fio (it replayed the old
# ones, writing to the old log's file, dataA, not dataB).
rm -f dataA dataB && truncate -s 64k dataA dataB
for f in A B; do
  printf 'fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n%s write 4096 4096\n%s close\n' \
    "$tmp/data$f" "$tmp/data$f" "$tmp/data$f" "$tmp/data$f" "$tmp/data$f" >"$f.log"
done
cp A.log gen.log
printf '[p1]\nioengine=null\nsize=4k\nexec_postrun=cp %s/B.log %s/gen.log\n' "$tmp" "$tmp" >gen.fio
printf '[p2]\nstonewall\nioengine=psync\nread_iolog=%s/gen.log\n' "$tmp" >>gen.fio
out=$("$bin" gen.fio --output-format=terse 2>&1)
expect_eq "a log an earlier exec_postrun rewrites: p2's error and KiB written" \
  "$(grep '^3;[^;]*;p2;' <<<"$out" | cut -d';' -f5,47)" "0;8"
expect_eq "a log an earlier exec_postrun rewrites: written to the new log's file" \
  "$(cmp -s dataA <(head -c 65536 /dev/zero) && ! cmp -s dataB <(head -c 65536 /dev/zero) && echo dataB)" \
  dataB
rm -f seq seq.log
rec_job "" >rr2.fio
out=$("$bin" rr2.fio 2>&1) && fail "record and replay of one log at the same time ran"
case $out in *"the replay would read the lines it records"*) echo "ok   record and replay at once refused" ;;
  *) fail "record and replay at once: $out" ;; esac

# --- I/O or a sync after a close names the close ---
truncate -s 64k cl
printf 'fio version 3 iolog\n0 %s add\n1 %s open\n2 %s read 0 4096\n3 %s close\n4 %s sync 0 0\n' \
  "$tmp/cl" "$tmp/cl" "$tmp/cl" "$tmp/cl" "$tmp/cl" >cl.log
out=$("$bin" --name=r --read_iolog=cl.log --output=/dev/null 2>&1) && fail "a sync after a close ran"
case $out in *"cl.log:6: 'sync' on file '$tmp/cl', which was closed at line 5 (no 'open' line after it)"*) ;;
  *) fail "sync after close: $out" ;; esac

# --- a sync_file_range range the kernel refuses is refused before the run ---
printf 'fio version 3 iolog\n0 %s add\n1 %s open\n2 %s sync_file_range 9223372036854775807 1\n' \
  "$tmp/cl" "$tmp/cl" "$tmp/cl" >sfr.log
out=$("$bin" --name=r --read_iolog=sfr.log --output=/dev/null 2>&1) && fail "a bad sync_file_range ran"
case $out in *"sfr.log:4: sync_file_range offset 9223372036854775807 + length 1 is past 2^63 - 1"*) ;;
  *) fail "bad sync_file_range range: $out" ;; esac

# --- read_iolog=a\:b.log opens a:b.log, as fio and filename= read '\:' ---
truncate -s 64k col
printf 'fio version 3 iolog\n0 %s add\n1 %s open\n2 %s read 0 4096\n3 %s close\n' \
  "$tmp/col" "$tmp/col" "$tmp/col" "$tmp/col" >'a:b.log'
out=$("$bin" --name=r --read_iolog='a\:b.log' 2>&1) || fail "read_iolog='a\\:b.log' (cmdline): $out"
case $out in *"replayed read_iolog a:b.log "*) echo "ok   read_iolog a\\:b.log on the command line" ;;
  *) fail "read_iolog a\\:b.log (cmdline): $out" ;; esac
printf '[r]\nread_iolog=a\\:b.log\n' >esc.fio
out=$("$bin" esc.fio 2>&1) || fail "read_iolog=a\\:b.log (job file): $out"
# The checks that compare paths see the file it opens.
printf '[r]\nread_iolog=a\\:b.log\nwrite_iolog=a:b.log\n' >esc2.fio
out=$("$bin" esc2.fio 2>&1) && fail "write_iolog=a:b.log with read_iolog=a\\:b.log ran"
case $out in *"is its own read_iolog=a\\:b.log (esc2.fio:2)"*) echo "ok   read_iolog a\\:b.log is write_iolog a:b.log" ;;
  *) fail "read_iolog a\\:b.log vs write_iolog a:b.log: $out" ;; esac
cp 'a:b.log' keep.log
out=$("$bin" esc.fio --output=a:b.log 2>&1) && fail "--output=a:b.log over read_iolog=a\\:b.log ran"
expect_eq "--output=a:b.log does not overwrite read_iolog=a\\:b.log" "$(cmp -s a:b.log keep.log && echo kept)" kept
# An unescaped ':' is still a list of logs.
out=$("$bin" --name=r --read_iolog='a:b.log' 2>&1) && fail "read_iolog=a:b.log (a list) ran"
case $out in *"a ':' list of logs is not supported yet"*) ;; *) fail "a ':' list: $out" ;; esac

# --- a write_iolog that cannot be opened names where it was set ---
printf '[j]\nioengine=null\nsize=16k\nwrite_iolog=nodir/p\n' >wnd.fio
work=$tmp
expect_run "write_iolog in a missing directory (job file)" 2 \
  "^iobench: job 'j': write_iolog=nodir/p \(wnd\.fio:4\): open log file nodir/p: No such file or directory$" \
  -- "$bin" wnd.fio
expect_run "write_iolog in a missing directory (command line)" 2 \
  "write_iolog=nodir/p \(<cmdline>\): open log file nodir/p" \
  -- "$bin" --name=j --ioengine=null --size=16k --write_iolog=nodir/p

# --- a file the log names that cannot be looked up is a refusal (exit 2) ---
touch nd
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s close\n' \
  "$tmp/nd/x" "$tmp/nd/x" "$tmp/nd/x" "$tmp/nd/x" >notdir.log
work=$tmp
expect_run "a log's file through a regular file" 2 \
  "read_iolog notdir\.log:2: stat $tmp/nd/x: Not a directory$" \
  -- "$bin" --name=r --read_iolog=notdir.log
expect_run "a log's file through a regular file, with size=" 2 \
  "read_iolog notdir\.log:2: stat $tmp/nd/x: Not a directory$" \
  -- "$bin" --name=r --read_iolog=notdir.log --size=1m

# --- buffers too large for memory: a replay's bs is its log's longest I/O ---
printf 'fio version 2 iolog\nbig add\nbig open\nbig read 0 4096\nbig write 0 1125899906842624\nbig read 0 8192\nbig close\n' >big.log
work=$tmp
expect_run "a log whose I/O needs more memory than there is" 2 \
  "^iobench: memory: the I/O buffers need 1 PiB .*\(in a replay, bs is the log's longest read or write: job 'r': 1 PiB at read_iolog big\.log:5\)$" \
  -- "$bin" --name=r --ioengine=null --read_iolog=big.log

# --- zonemode=strided is refused for being a replay, whatever the log holds ---
# The log's directions and files become the job's rw= and filename=: the
# refusals about those named options the user did not set.
truncate -s 64k z1 z2
printf 'fio version 2 iolog\n%s add\n%s open\n%s read 0 4096\n%s write 4096 4096\n%s close\n' \
  "$tmp/z1" "$tmp/z1" "$tmp/z1" "$tmp/z1" "$tmp/z1" >fio.log
printf 'fio version 2 iolog\n%s add\n%s add\n%s open\n%s open\n%s read 0 4096\n%s read 0 4096\n%s close\n%s close\n' \
  "$tmp/z1" "$tmp/z2" "$tmp/z1" "$tmp/z2" "$tmp/z1" "$tmp/z2" "$tmp/z1" "$tmp/z2" >two.log
printf '[r]\nread_iolog=fio.log\nioengine=psync\n' >rep.fio
printf '[r]\nread_iolog=two.log\nioengine=psync\n' >rep2.fio
zoned=(--zonemode=strided --zonesize=64k --zonerange=128k)
want="zonemode=strided \\(<cmdline>\\): not with read_iolog: the log gives the offsets"
work=$tmp
expect_run "zonemode with a mixed read/write log" 2 "$want" -- "$bin" rep.fio "${zoned[@]}"
expect_run "zonemode with a mixed log, writes skipped" 2 "$want" -- "$bin" rep.fio "${zoned[@]}" --replay_skip=write
expect_run "zonemode with a log of two files" 2 "$want" -- "$bin" rep2.fio "${zoned[@]}"

[ "$fails" -eq 0 ]
