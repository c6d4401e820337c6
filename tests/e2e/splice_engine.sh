#!/bin/bash
# The splice engine (fio's engine of that name), against fixed expected
# values and, when fio's side runs, fio 3.33 on the same job: exit code, the
# job's error, total_ios/io_bytes per direction and the fsync count.
#  - Data: a file written with splice passes verify=crc32c read back with
#    splice and with psync, and one written with psync read back with
#    splice; bs=1m (16 pipe-sized chunks per I/O) and bs=1000 (not a page
#    multiple) too.
#  - direct=1 (O_DIRECT file), numjobs=2, time_based, fsync=4, /dev/null
#    (a write succeeds, a read fails with EINVAL at its first I/O, as fio),
#    a loop device when root.
# The engine used to be refused as "a fio engine that iobench does not
# support yet". $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# run TOOL ARGS...: runs TOOL on file $FILE (default F) and prints "rc=N err=E r=IOS/BYTES
# w=IOS/BYTES t=IOS/BYTES sync=N", summed over the jobs.
run() {
  local t=$1 rc out
  shift
  out=$("$(cmd "$t")" --thread --name=j --filename="${FILE:-F}" --bs=4k --ioengine=splice \
    --output-format=json "$@" 2>err.txt)
  rc=$?
  printf 'rc=%s %s\n' "$rc" "$(python3 -c '
import json, sys
t = sys.stdin.read()
js = json.loads(t[t.find("{"):])["jobs"]
s = lambda d, k: sum(j[d][k] for j in js)
print("err=%d" % max(j["error"] for j in js),
      *("%s=%d/%d" % (d[0], s(d, "total_ios"), s(d, "io_bytes")) for d in ("read", "write", "trim")),
      "sync=%d" % sum(j["sync"]["total_ios"] for j in js))' <<<"$out" 2>/dev/null)"
}
# check NAME WANT ARGS...: the job with each tool must give WANT.
check() {
  local t
  for t in $(tools); do expect_eq "$t $1" "$(run "$t" "${@:3}")" "$2"; done
}

V='--verify=crc32c'
for t in $(tools); do
  rm -f F
  expect_eq "$t write 1m, verify" "$(run "$t" --rw=write --size=1m $V)" \
    "rc=0 err=0 r=256/1048576 w=256/1048576 t=0/0 sync=0"
  expect_eq "$t read back with splice" "$(run "$t" --rw=read --size=1m $V)" \
    "rc=0 err=0 r=256/1048576 w=0/0 t=0/0 sync=0"
  expect_eq "$t read back with psync" "$(run "$t" --rw=read --size=1m $V --ioengine=psync)" \
    "rc=0 err=0 r=256/1048576 w=0/0 t=0/0 sync=0"
  rm -f F
  expect_eq "$t randwrite with psync" "$(run "$t" --rw=randwrite --size=1m $V --do_verify=0 \
    --ioengine=psync)" "rc=0 err=0 r=0/0 w=256/1048576 t=0/0 sync=0"
  expect_eq "$t psync's file read with splice" "$(run "$t" --rw=randread --size=1m $V)" \
    "rc=0 err=0 r=256/1048576 w=0/0 t=0/0 sync=0"
  # 1 MiB I/Os: 16 pipe-sized chunks each way.
  rm -f F
  expect_eq "$t bs=1m write" "$(run "$t" --rw=write --bs=1m --size=4m $V)" \
    "rc=0 err=0 r=4/4194304 w=4/4194304 t=0/0 sync=0"
  expect_eq "$t bs=1m read" "$(run "$t" --rw=read --bs=1m --size=4m $V)" \
    "rc=0 err=0 r=4/4194304 w=0/0 t=0/0 sync=0"
  expect_eq "$t bs=1m read with psync" "$(run "$t" --rw=randread --bs=1m --size=4m $V \
    --ioengine=psync)" "rc=0 err=0 r=4/4194304 w=0/0 t=0/0 sync=0"
  rm -f F
  expect_eq "$t bs=1000 randwrite" "$(run "$t" --rw=randwrite --bs=1000 --size=64000 $V)" \
    "rc=0 err=0 r=64/64000 w=64/64000 t=0/0 sync=0"
done
rm -f F
check "randwrite, verify_backlog" "rc=0 err=0 r=64/262144 w=64/262144 t=0/0 sync=0" \
  --rw=randwrite --size=256k $V --verify_backlog=16
check "direct=1 write" "rc=0 err=0 r=0/0 w=16/65536 t=0/0 sync=0" --rw=write --size=64k --direct=1
check "direct=1 read" "rc=0 err=0 r=16/65536 w=0/0 t=0/0 sync=0" --rw=randread --size=64k \
  --direct=1
check "fsync=4" "rc=0 err=0 r=0/0 w=16/65536 t=0/0 sync=3" --rw=write --size=64k --fsync=4
check "numjobs=2" "rc=0 err=0 r=0/0 w=128/524288 t=0/0 sync=0" --rw=randwrite --size=256k \
  --numjobs=2
# time_based: a 1 MiB region read over and over for 1 s.
for t in $(tools); do
  got=$(run "$t" --rw=randread --size=1m --time_based --runtime=1)
  case $got in
    "rc=0 err=0 r="*/*" w=0/0 t=0/0 sync=0") ;;
    *) fail "$t time_based: $got" ;;
  esac
  ios=${got#* r=}
  [ "${ios%%/*}" -gt 256 ] || fail "$t time_based: only ${ios%%/*} reads in 1 s"
done
# Trim on a regular file: a hole punch in iobench (as with every engine);
# fio 3.33 sends BLKDISCARD, ENOTTY, and fails the job with EIO.
rm -f F
expect_eq "iob trim" "$(run iob --rw=trim --size=64k)" "rc=0 err=0 r=0/0 w=0/0 t=16/65536 sync=0"
if fio_side; then
  expect_eq "fio trim" "$(run fio --rw=trim --size=64k)" "rc=1 err=5 r=0/0 w=0/0 t=1/0 sync=0"
fi
# /dev/null: the kernel splices to it but not from it.
FILE=/dev/null check "write /dev/null" "rc=0 err=0 r=0/0 w=16/65536 t=0/0 sync=0" --rw=write \
  --size=64k
FILE=/dev/null check "read /dev/null" "rc=1 err=22 r=1/0 w=0/0 t=0/0 sync=0" --rw=read --size=64k
FILE=/dev/null run iob --rw=read --size=64k >/dev/null
grep -q "err=22 (read /dev/null offset=0 length=4096: Invalid argument)" err.txt ||
  fail "read /dev/null: the error names the read: $(cat err.txt)"
# A block device, buffered and O_DIRECT: each tool reads back what it wrote
# (their verify headers differ).
if [ "$(id -u)" = 0 ] && truncate -s 4m img && dev=$(losetup -f --show img 2>/dev/null); then
  for t in $(tools); do
    expect_eq "$t write $dev" "$(FILE=$dev run "$t" --rw=write --size=1m $V)" \
      "rc=0 err=0 r=256/1048576 w=256/1048576 t=0/0 sync=0"
    expect_eq "$t read $dev direct=1" "$(FILE=$dev run "$t" --rw=randread --size=1m $V \
      --direct=1)" "rc=0 err=0 r=256/1048576 w=0/0 t=0/0 sync=0"
    expect_eq "$t trim $dev" "$(FILE=$dev run "$t" --rw=trim --size=64k)" \
      "rc=0 err=0 r=0/0 w=0/0 t=16/65536 sync=0"
  done
  losetup -d "$dev"
fi
"$bin" --list-engines | grep -q "^splice  *available" || fail "--list-engines lacks splice"
[ "$fails" -eq 0 ]
