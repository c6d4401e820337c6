#!/bin/bash
# The cpuio engine (fio's engine of that name): no I/O and no file; each
# "I/O" is a busy chunk of cpuchunks us, with a think time after it that
# makes the busy share cpuload percent. Checked for structure, never for
# timing, with each tool (fio 3.33 when its side runs):
#  - the job runs and burns CPU (usr > 0), reports its chunks as reads
#    (total_ios > 0, clat N = total_ios) of 0 bytes with no runtime,
#    bandwidth or IOPS, and creates no file (filename= and size= given);
#  - the normal report: fio's "NAME (noop): ioengine=cpuio, cpuload=L,
#    cpucycle=C" line, no "NAME: (g=0)" header, no read line; cpuload above
#    100 is 100; cpumode=qsort says (qsort);
#  - exit_on_io_done=1 beside a psync job: the run ends with the I/O job
#    (the cpuio job alone would run forever); with cpuio jobs only it runs
#    to its runtime;
#  - bad values (iobench alone): refused naming the option and file:line.
# cpuio used to be refused as "a fio engine that iobench does not support
# yet". $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
source "$2/tests/e2e/fio_side.bash"

# shape TOOL ARGS...: the cpuio job's JSON report, reduced to what must hold
# whatever the timing, and whether file NOFILE exists afterwards.
shape() {
  local t=$1 out rc
  shift
  rm -f NOFILE
  out=$(timeout -s KILL 60 "$(cmd "$t")" --thread --output-format=json "$@" 2>err.txt)
  rc=$?
  printf 'rc=%s %s file=%s\n' "$rc" "$(python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
r = j["read"]
print("err=%d" % j["error"], "ios>0=%d" % (r["total_ios"] > 0), "bytes=%d" % r["io_bytes"],
      "runtime=%d" % r["runtime"], "bw=%d" % r["bw_bytes"], "iops=%g" % r["iops"],
      "clatN=ios:%d" % (r["clat_ns"]["N"] == r["total_ios"]),
      "w=%d t=%d" % (j["write"]["total_ios"], j["trim"]["total_ios"]),
      "usr>0=%d" % (j["usr_cpu"] > 0), "sys<usr=%d" % (j["sys_cpu"] < j["usr_cpu"]))' \
    <<<"$out" 2>/dev/null)" "$([ -e NOFILE ] && echo yes || echo no)"
}

want="rc=0 err=0 ios>0=1 bytes=0 runtime=0 bw=0 iops=0 clatN=ios:1 w=0 t=0 usr>0=1 sys<usr=1 file=no"
for t in $(tools); do
  expect_eq "$t cpuio job" \
    "$(shape "$t" --name=burn --ioengine=cpuio --cpuload=60 --runtime=1 --filename=NOFILE \
      --size=1m)" "$want"
  expect_eq "$t cpuio rw=randwrite cpumode=qsort (still reads of no data)" \
    "$(shape "$t" --name=burn --ioengine=cpuio --cpuload=60 --cpumode=qsort --cpuchunks=20000 \
      --runtime=1 --rw=randwrite --filename=NOFILE --size=1m)" "$want"
done

# number_ios caps the chunks, with or without a runtime, and rate limits
# never hold a chunk back (it moves no data): iobench ran number_ios=3 for
# the whole runtime (forever without one) and rate_iops=1 gave 1 chunk.
chunks() {
  timeout -s KILL 60 "$(cmd "$1")" --thread --name=burn --ioengine=cpuio --cpuload=50 \
    --cpuchunks=20000 --output-format=json "${@:2}" 2>/dev/null | python3 -c '
import json, sys
t = sys.stdin.read()
print(*(j["read"]["total_ios"] for j in json.loads(t[t.find("{"):])["jobs"]))'
}
for t in $(tools); do
  expect_eq "$t number_ios=3" "$(chunks "$t" --number_ios=3)" 3
  expect_eq "$t number_ios=3 numjobs=2 runtime=5" "$(chunks "$t" --number_ios=3 --numjobs=2 \
    --runtime=5)" "3 3"
  expect_eq "$t number_ios=4 rate_iops=1 runtime=5" "$(chunks "$t" --number_ios=4 \
    --rate_iops=1 --runtime=5)" 4
  expect_eq "$t number_ios=4 rate=1 runtime=5" "$(chunks "$t" --number_ios=4 --rate=1 \
    --runtime=5)" 4
done

# Interim reports (--status-interval) too: chunks counted, no bytes, no
# runtime in any of them (an interim read runtime of 1032 ms was reported).
for t in $(tools); do
  expect_eq "$t interim reports" "$(timeout -s KILL 60 "$(cmd "$t")" --thread --name=burn \
    --ioengine=cpuio --cpuload=50 --runtime=2 --status-interval=1 --output-format=json \
    2>/dev/null | python3 -c '
import json, sys
t = sys.stdin.read()
dec, i, seen = json.JSONDecoder(), 0, []
while t.find("{", i) >= 0:
    d, e = dec.raw_decode(t[t.find("{", i):])
    i = t.find("{", i) + e
    r = d["jobs"][0]["read"]
    seen.append("ios>0=%d bytes=%d runtime=%d" % (r["total_ios"] > 0, r["io_bytes"], r["runtime"]))
print("reports>1=%d" % (len(seen) > 1), *sorted(set(seen)))')" \
    "reports>1=1 ios>0=1 bytes=0 runtime=0"
done

# The normal report's lines, the same in both tools.
lines() {
  timeout -s KILL 60 "$(cmd "$1")" --thread "${@:2}" 2>&1 |
    grep -E '^(burn|Starting|\.\.\.)|^  read:|issued rwts: total=[0-9]+,0,0,0' |
    sed -E 's/^(burn: \(groupid=0, jobs=1\)).*/\1/; s/total=[0-9]+,/total=N,/'
}
for t in $(tools); do
  expect_eq "$t normal report" "$(lines "$t" --name=burn --ioengine=cpuio --cpuload=150 \
    --runtime=1 --numjobs=2)" "...
Starting 2 threads
burn (noop): ioengine=cpuio, cpuload=100, cpucycle=50000
burn (noop): ioengine=cpuio, cpuload=100, cpucycle=50000
burn: (groupid=0, jobs=1)
     issued rwts: total=N,0,0,0 short=0,0,0,0 dropped=0,0,0,0
burn: (groupid=0, jobs=1)
     issued rwts: total=N,0,0,0 short=0,0,0,0 dropped=0,0,0,0"
  expect_eq "$t normal report, qsort" "$(lines "$t" --name=burn --ioengine=cpuio --cpuload=40 \
    --cpumode=qsort --cpuchunks=20000 --runtime=1 | sed -n 2p)" \
    "burn (qsort): ioengine=cpuio, cpuload=40, cpucycle=20000"
done

# exit_on_io_done: the cpuio jobs have no runtime and would never end; the
# psync job writes 1 MiB and ends, and the run with it.
cat >eod.fio <<'EOF'
[burn]
ioengine=cpuio
cpuload=20
exit_on_io_done=1
numjobs=2
[io]
ioengine=psync
filename=IOFILE
size=1m
rw=write
rate=4m
EOF
for t in $(tools); do
  rm -f IOFILE
  out=$(timeout -s KILL 60 "$(cmd "$t")" --thread --output-format=json eod.fio 2>err.txt)
  expect_eq "$t exit_on_io_done=1 beside a psync job" "rc=$? $(python3 -c '
import json, sys
t = sys.stdin.read()
d = json.loads(t[t.find("{"):])
print(" ".join("%s:err=%d,ios>0=%d,bytes=%d/%d" % (j["jobname"], j["error"],
      j["read"]["total_ios"] + j["write"]["total_ios"] > 0, j["read"]["io_bytes"],
      j["write"]["io_bytes"]) for j in d["jobs"]))' <<<"$out" 2>/dev/null)" \
    "rc=0 burn:err=0,ios>0=1,bytes=0/0 burn:err=0,ios>0=1,bytes=0/0 io:err=0,ios>0=1,bytes=0/1048576"
  # Only cpuio jobs: nothing to wait for, so exit_on_io_done does not stop
  # them at once; they run to their runtime (more than one chunk).
  out=$(timeout -s KILL 60 "$(cmd "$t")" --thread --output-format=json --name=burn \
    --ioengine=cpuio --cpuload=50 --exit_on_io_done=1 --runtime=1 2>err.txt)
  expect_eq "$t exit_on_io_done=1 with cpuio jobs only" "rc=$? $(python3 -c '
import json, sys
t = sys.stdin.read()
print("chunks>1=%d" % (json.loads(t[t.find("{"):])["jobs"][0]["read"]["total_ios"] > 1))' \
    <<<"$out" 2>/dev/null)" "rc=0 chunks>1=1"
done
rm -f IOFILE

# Bad values: refused before the run, naming the option and file:line.
# (fio takes cpuload=-1 as 100 and cpuchunks=-5 as 71 minutes per chunk,
# unwrapped unsigned values; it fails cpuload=0 at the job's start, exit 1.)
refused() {  # NAME WANT-IN-STDERR OPTION-LINES...
  local name=$1 want=$2 rc
  shift 2
  printf '[burn]\nioengine=cpuio\nruntime=1\n' >v.fio
  printf '%s\n' "$@" >>v.fio
  timeout -s KILL 60 "$bin" v.fio >out.txt 2>err.txt
  rc=$?
  [ "$rc" != 0 ] || fail "$name: exit 0"
  grep -qF -- "$want" err.txt || fail "$name: stderr has no '$want': $(head -c 300 err.txt)"
  if grep -q 'issued rwts' out.txt; then fail "$name: the job ran"; fi
}
refused "cpuload=0" "cpuload=0 (v.fio:4): the cpuio engine needs a load above 0" "cpuload=0"
refused "no cpuload" "ioengine=cpuio (v.fio:2) needs cpuload=" "cpumode=noop"
refused "cpuload=-1" "v.fio:4:9: value -1 of option 'cpuload' is out of range" "cpuload=-1"
refused "cpuload=abc" "v.fio:4:9: option 'cpuload': bad number 'abc'" "cpuload=abc"
refused "cpuchunks=-5" "v.fio:5:11: value -5 of option 'cpuchunks' is out of range" "cpuload=5" \
  "cpuchunks=-5"
refused "cpumode=foo" "v.fio:5:9: option 'cpumode': cpumode 'foo': expected noop or qsort" \
  "cpuload=5" "cpumode=foo"
refused "exit_on_io_done=2" "v.fio:5:17: option 'exit_on_io_done' is a flag" "cpuload=5" \
  "exit_on_io_done=2"
printf '[j]\nioengine=psync\ncpuload=5\n' >w.fio
"$bin" w.fio >/dev/null 2>err.txt && fail "cpuload under psync: exit 0"
grep -qF "w.fio:3:1: option 'cpuload' needs ioengine=cpuio" err.txt ||
  fail "cpuload under psync: $(head -c 300 err.txt)"

[ "$fails" -eq 0 ]
