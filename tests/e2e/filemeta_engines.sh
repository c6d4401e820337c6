#!/bin/bash
# The file-metadata engines filecreate, filestat and filedelete (fio's
# engines of those names), against fixed expected values and, when fio's
# side runs, fio 3.33 on the same job: exit code, the job's error,
# total_ios/io_bytes per direction, the clat and lat sample counts of each
# direction, and what is left in the job's directory afterwards.
#  - Each file's call (open(O_CREAT), stat/lstat/statx, unlink) is one clat
#    sample of the job's direction (read if it reads, else write), once per
#    file per loop; the I/Os record no latency (lat N=0) but count as I/Os
#    and bytes (IOPS = blocks per second).
#  - filecreate lays nothing out: each file is one block unless size= or
#    filesize= say more, made 0600 and empty.
#  - filestat and filedelete lay their files out first; filedelete leaves
#    none, and a second loop fails with ENOENT (exit 1, err=2).
#  - Errors: a missing parent (ENOENT) fails filecreate's call; a
#    directory fails it in fio (EISDIR) and is refused before the run in
#    iobench; verify, a device (fio: "only files are supported", no I/O),
#    --readonly filecreate/filedelete and a bad stat_type are refused
#    before the run (iobench only).
# The three engines used to be refused as "a fio engine that iobench does
# not support yet". $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# run TOOL ARGS...: runs TOOL with directory=D (emptied first unless KEEP=1)
# and prints "rc=N err=E r=IOS/BYTES/CLAT_N/LAT_N w=... files=N MODES".
run() {
  local t=$1 rc out
  shift
  [ "${KEEP:-0}" = 1 ] || { rm -rf D && mkdir D; }
  out=$("$(cmd "$t")" --thread --name=j --directory=D --output-format=json "$@" 2>err.txt)
  rc=$?
  printf 'rc=%s %s files=%s %s\n' "$rc" "$(python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print("err=%d" % j["error"], *("%s=%d/%d/%d/%d" % (d[0], j[d]["total_ios"], j[d]["io_bytes"],
      j[d]["clat_ns"]["N"], j[d]["lat_ns"]["N"]) for d in ("read", "write")))' <<<"$out" 2>/dev/null)" \
    "$(find D -mindepth 1 | wc -l)" "$(find D -mindepth 1 -type f -printf '%m:%s\n' | sort -u | tr '\n' ' ')"
}
C='--ioengine=filecreate'
check "filecreate write nrfiles=20" "rc=0 err=0 r=0/0/0/0 w=20/81920/20/0 files=20 600:0 " \
  $C --rw=write --nrfiles=20
check "filecreate filesize=16k: 4 I/Os, 1 call per file" \
  "rc=0 err=0 r=0/0/0/0 w=20/81920/5/0 files=5 600:0 " $C --rw=write --nrfiles=5 --filesize=16k
check "filecreate size=40k bs=1k" "rc=0 err=0 r=0/0/0/0 w=40/40960/5/0 files=5 600:0 " $C \
  --rw=write --nrfiles=5 --size=40k --bs=1k
check "filecreate read" "rc=0 err=0 r=5/20480/5/0 w=0/0/0/0 files=5 600:0 " $C --rw=read --nrfiles=5
check "filecreate randrw: the calls are reads" "rc=0 err=0 r=10/40960/10/0 w=0/0/0/0 files=10 600:0 " \
  $C --rw=randrw --nrfiles=10 --rwmixread=100
check "filecreate loops=3" "rc=0 err=0 r=0/0/0/0 w=15/61440/15/0 files=5 600:0 " $C --rw=write \
  --nrfiles=5 --loops=3
check "filecreate openfiles=1 loops=2" "rc=0 err=0 r=0/0/0/0 w=10/40960/10/0 files=5 600:0 " $C \
  --rw=write --nrfiles=5 --openfiles=1 --loops=2 --create_on_open=1
check "filecreate disable_lat=1: no sample" "rc=0 err=0 r=0/0/0/0 w=5/20480/0/0 files=5 600:0 " $C \
  --rw=write --nrfiles=5 --disable_lat=1
# Ended inside its ramp: the calls' samples stay (fio's engines add them
# themselves), where an I/O's latency in the ramp is dropped.
check "filecreate ramp_time=1s" "rc=0 err=0 r=0/0/0/0 w=3/12288/3/0 files=3 600:0 " $C \
  --rw=write --nrfiles=3 --ramp_time=1s
check "filecreate disable_clat=1: the calls still count" \
  "rc=0 err=0 r=0/0/0/0 w=5/20480/5/0 files=5 600:0 " $C --rw=write --nrfiles=5 --disable_clat=1
# An existing file keeps its data and size: the call only opens it.
for t in $(tools); do
  rm -rf D && mkdir D && printf 'abc' >D/j.0.0
  expect_eq "$t filecreate on an existing file" "$(KEEP=1 run "$t" $C --rw=write --nrfiles=2)" \
    "rc=0 err=0 r=0/0/0/0 w=2/8192/2/0 files=2 600:0 644:3 "
done
# A directory, a missing parent: the call fails, the job with it.
for t in $(tools); do
  # fio fails the call with EISDIR; iobench refuses a directory target
  # before the run, as for any engine.
  rm -rf D && mkdir -p D/sub
  want="rc=1 err=21 r=0/0/0/0 w=0/0/0/0 files=1 "
  [ "$t" = iob ] && want="rc=2  files=1 "
  expect_eq "$t filecreate on a directory" "$(KEEP=1 run "$t" $C --rw=write --filename=sub)" "$want"
  rm -rf D && mkdir D
  expect_eq "$t filecreate in a missing directory" "$(KEEP=1 run "$t" $C --rw=write \
    --filename=nodir/f)" "rc=1 err=2 r=0/0/0/0 w=0/0/0/0 files=0 "
done

S='--ioengine=filestat'
check "filestat read" "rc=0 err=0 r=10/40960/10/0 w=0/0/0/0 files=10 644:4096 " $S --rw=read \
  --nrfiles=10 --filesize=4k
check "filestat filesize=16k" "rc=0 err=0 r=40/163840/10/0 w=0/0/0/0 files=10 644:16384 " $S \
  --rw=read --nrfiles=10 --filesize=16k
check "filestat lstat loops=2" "rc=0 err=0 r=20/81920/20/0 w=0/0/0/0 files=10 644:4096 " $S \
  --rw=read --nrfiles=10 --filesize=4k --stat_type=lstat --loops=2
check "filestat statx" "rc=0 err=0 r=10/40960/10/0 w=0/0/0/0 files=10 644:4096 " $S --rw=read \
  --nrfiles=10 --filesize=4k --stat_type=statx
check "filestat write" "rc=0 err=0 r=0/0/0/0 w=10/40960/10/0 files=10 644:4096 " $S --rw=write \
  --nrfiles=10 --filesize=4k
check "filestat unlink=1" "rc=0 err=0 r=10/40960/10/0 w=0/0/0/0 files=0 " $S --rw=read \
  --nrfiles=10 --filesize=4k --unlink=1

X='--ioengine=filedelete'
check "filedelete write" "rc=0 err=0 r=0/0/0/0 w=10/40960/10/0 files=0 " $X --rw=write \
  --nrfiles=10 --filesize=4k
check "filedelete unlink=1" "rc=0 err=0 r=0/0/0/0 w=5/20480/5/0 files=0 " $X --rw=write \
  --nrfiles=5 --filesize=4k --unlink=1
# The second loop's first call finds the file gone.
check "filedelete loops=2" "rc=1 err=2 r=2/8192/2/0 w=0/0/0/0 files=0 " $X --rw=read \
  --nrfiles=2 --filesize=4k --loops=2

# unlink_each_loop=1: the files go after each loop; the next loop's calls
# create them again (filecreate) or find them gone (filestat); filedelete's
# are gone already, so their removal fails (ENOENT), as fio's.
check "filecreate unlink_each_loop loops=2" "rc=0 err=0 r=0/0/0/0 w=10/40960/10/0 files=5 600:0 " \
  $C --rw=write --nrfiles=5 --unlink_each_loop=1 --loops=2
check "filestat unlink_each_loop loops=2" "rc=1 err=2 r=5/20480/5/0 w=0/0/0/0 files=0 " $S \
  --rw=read --nrfiles=5 --filesize=4k --unlink_each_loop=1 --loops=2
check "filedelete unlink_each_loop loops=2" "rc=1 err=2 r=0/0/0/0 w=5/20480/5/0 files=0 " $X \
  --rw=write --nrfiles=5 --filesize=4k --unlink_each_loop=1 --loops=2

# The example job files of fio's examples/ (rw=filecreate there is newer
# than fio 3.33: rw=write), scaled down.
cat >fc.fio <<'EOF'
[global]
rw=write
create_on_open=1
nrfiles=50
ioengine=filecreate
fallocate=none
filesize=4k
openfiles=1
directory=D
[t0]
[t1]
EOF
for t in $(tools); do
  rm -rf D && mkdir D
  got=$("$(cmd "$t")" --thread --output-format=json fc.fio 2>err.txt | python3 -c '
import json, sys
t = sys.stdin.read()
print(*("%s:%d/%d/%d" % (j["jobname"], j["write"]["total_ios"], j["write"]["clat_ns"]["N"],
      j["error"]) for j in json.loads(t[t.find("{"):])["jobs"]))')
  expect_eq "$t filecreate-ioengine.fio" "$got $(ls D | wc -l)" "t0:50/50/0 t1:50/50/0 100"
done

cat >fs.fio <<'EOF'
[global]
rw=read
ioengine=filestat
numjobs=1
filesize=4k
nrfiles=20
thread
directory=D
[t0]
[t1]
[t2]
EOF
# fio's filedelete-ioengine.fio: unlink=0 for thread. (Both examples say
# rw=filestat / rw=filedelete, which fio 3.33 does not take: rw=read.)
sed 's/filestat/filedelete/; s/^thread$/unlink=0/' fs.fio >fd.fio
for t in $(tools); do
  for f in fs fd; do
    rm -rf D && mkdir D
    got=$("$(cmd "$t")" --thread --output-format=json $f.fio 2>err.txt | python3 -c '
import json, sys
t = sys.stdin.read()
print(*("%s:%d/%d/%d/%d" % (j["jobname"], j["read"]["total_ios"], j["read"]["clat_ns"]["N"],
      j["read"]["lat_ns"]["N"], j["error"]) for j in json.loads(t[t.find("{"):])["jobs"]))')
    want="t0:20/20/0/0 t1:20/20/0/0 t2:20/20/0/0"
    [ $f = fs ] && want="$want 60" || want="$want 0"
    expect_eq "$t $f.fio (fio's example, scaled)" "$got $(ls D | wc -l)" "$want"
  done
done

# The calls mark no latency bucket (fio's FIO_NOSTATS engines): the
# latency_ns/us/ms shares are all 0, and the text report has no "lat (" line.
for t in $(tools); do
  rm -rf D && mkdir D
  got=$("$(cmd "$t")" --thread --name=j --directory=D --ioengine=filecreate --rw=write \
    --nrfiles=20 --output-format=json 2>err.txt | python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["write"]["clat_ns"]["N"], sum(v for k in ("latency_ns", "latency_us", "latency_ms")
                                      for v in j[k].values()))')
  expect_eq "$t filecreate: no latency buckets" "$got" "20 0.0"
  rm -rf D && mkdir D
  expect_eq "$t filecreate: no lat line" "$("$(cmd "$t")" --thread --name=j --directory=D \
    --ioengine=filecreate --rw=write --nrfiles=20 2>&1 | grep -c '^ *lat (\|clat (')" 1
done

# Logs: the calls are the clat log's lines (no block size, offset 0); the
# I/Os log nothing (no bw, iops, lat or slat line), as in fio.
for t in $(tools); do
  rm -rf D L && mkdir D L
  "$(cmd "$t")" --thread --name=j --directory=D --ioengine=filestat --rw=read --nrfiles=5 \
    --filesize=4k --write_lat_log=L/x --write_bw_log=L/x --write_iops_log=L/x \
    --output-format=json >/dev/null 2>err.txt
  got=$(for k in bw iops slat clat lat; do printf '%s=%s ' $k "$(wc -l <L/x_$k.1.log)"; done)
  expect_eq "$t filestat logs" "$got$(cut -d, -f3- L/x_clat.1.log | sort -u | tr -d ' ')" \
    "bw=0 iops=0 slat=0 clat=5 lat=0 0,0,0"
done

# Permission (as root, run as nobody when it can reach the binary): the
# call fails with EACCES in a directory nobody may write, as fio's.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && chmod 755 "$tmp" &&
  as_nobody "$bin" --version >/dev/null 2>&1; then
  for t in $(tools); do
    rm -rf D && mkdir D && head -c 4096 /dev/zero >D/j.0.0
    for e in "filecreate --rw=write" "filedelete --rw=read --size=4k"; do
      as_nobody "$(cmd "$t")" --thread --name=j --directory=D --ioengine=$e \
        --output-format=json >out.json 2>err.txt
      expect_eq "$t ${e%% *} as nobody" "$? $(python3 -c '
import json, sys
t = open("out.json").read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["error"], j["read"]["total_ios"] + j["write"]["total_ios"])') $(ls D)" "1 13 0 j.0.0"
    done
  done
fi

# Refused before the run (iobench only).
for e in filecreate filestat filedelete; do
  rm -rf D && mkdir D
  "$bin" --name=j --directory=D --ioengine=$e --rw=write --size=4k --verify=crc32c \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$e verify: exit" "$?" 2
  grep -q "$e: verify=crc32c (<cmdline>): the $e engine moves no data" err.txt ||
    fail "$e verify: $(cat err.txt)"
  "$bin" --name=j --filename=/dev/null --ioengine=$e --rw=write --size=4k \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$e /dev/null: exit" "$?" 2
  grep -q "$e: filename=/dev/null (<cmdline>): /dev/null is not a regular file" err.txt ||
    fail "$e /dev/null: $(cat err.txt)"
done
for e in filecreate filedelete; do
  rm -rf D && mkdir D && : >D/j.0.0
  "$bin" --readonly --name=j --directory=D --ioengine=$e --rw=read --size=4k \
    --output-format=terse >/dev/null 2>err.txt
  expect_eq "$e --readonly: exit" "$?" 2
  grep -q "\-\-readonly: job 'j' .* its files (ioengine=$e at <cmdline>" err.txt ||
    fail "$e --readonly: $(cat err.txt)"
  expect_eq "$e --readonly: files" "$(ls D)" "j.0.0"
done
"$bin" --name=j --directory=D --ioengine=filestat --rw=read --size=4k --stat_type=bogus \
  --output-format=terse >/dev/null 2>err.txt
[ "$?" -ne 0 ] && grep -q "stat_type" err.txt || fail "stat_type=bogus: $(cat err.txt)"
# stat_type belongs to filestat.
"$bin" --name=j --directory=D --ioengine=psync --rw=read --size=4k --stat_type=lstat \
  --output-format=terse >/dev/null 2>err.txt
[ "$?" -ne 0 ] || fail "stat_type with psync was taken"
for e in filecreate filestat filedelete; do
  "$bin" --list-engines | grep -q "^$e  *available" || fail "--list-engines lacks $e"
done
[ "$fails" -eq 0 ]
