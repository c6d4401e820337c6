#!/bin/bash
# ctest-cost: 40
# ctest-labels: threads
# End to end: every job file under jobs/seeds/ runs, scaled down through its
# ${IOB_*} knobs, on tmpfs (/dev/shm), on ext4 (/var/tmp) and, for the
# block-device variants, on a 64 MiB loop device when root. Each run must
# exit 0 and report real numbers (total_ios > 0 in the directions the job
# does). Also: seed 003's 252 threads print READ and WRITE group lines, seed
# 002 runs libaio at depth 64 and 20000, and seeds 000/001 show io-wq helper
# threads with force_async=1 and none without.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
bin=$1
seeds=$2/jobs/seeds

fail() {
  echo "FAIL: $*"
  exit 1
}
[ -d "$seeds" ] || fail "no $seeds"
command -v python3 >/dev/null || {
  echo "skip: python3 is needed to read the JSON"
  exit 77
}

shm=$(mktemp -d /dev/shm/iobench_seeds.XXXXXX)
ext=$(mktemp -d /var/tmp/iobench_seeds.XXXXXX)
loop=""
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop"
  rm -rf "$shm" "$ext"
}
trap cleanup EXIT
out=$shm/out
mkdir "$out"
[ "$(stat -f -c %T /var/tmp)" = "ext2/ext3" ] || echo "note: /var/tmp is not ext4 here; runs there anyway"

# check FILE SPEC...: every job in the JSON FILE did I/O as SPEC says.
#   read / write / rw : those directions have total_ios > 0 (the others 0)
#   own               : seed 004 jobs, named after their rw= (read, randwrite...)
#   exact=N           : total_ios == N in the job's direction(s) unless the
#                       runtime limit stopped it first
#   iowq=yes|no       : the job's io-wq helper threads (peak > 1 and CPU > 0,
#                       or at most 1)
#   mix               : rwmixwrite=30: writes are 20-40% of the I/Os
check() {
  python3 - "$@" <<'PY'
import json, sys
path, specs = sys.argv[1], sys.argv[2:]
doc = json.load(open(path))
jobs = doc["jobs"]
assert jobs, "no jobs in " + path
for j in jobs:
    name = j["jobname"]
    assert j["error"] == 0, (name, j["error"])
    dirs = None
    for s in specs:
        if s in ("read", "write", "rw"):
            dirs = ["read", "write"] if s == "rw" else [s]
        elif s == "own":
            dirs = ["read"] if name.endswith("read") else ["write"]
    assert dirs, specs
    for d in ("read", "write", "trim"):
        n = j[d]["total_ios"]
        if d in dirs:
            assert n > 0, f"{path}: job {name}: no {d} I/O"
            assert j[d]["bw_bytes"] > 0 and j[d]["iops"] > 0, (name, d, j[d]["bw_bytes"])
        else:
            assert n == 0, f"{path}: job {name}: {n} {d} I/Os, expected none"
    for s in specs:
        if s.startswith("exact="):
            want = int(s[6:])
            got = sum(j[d]["total_ios"] for d in dirs)
            # A job stopped by its runtime limit before the pass ended did less.
            if j["job_runtime"] < 900:
                assert got == want, f"{path}: job {name}: {got} I/Os, expected {want}"
            else:
                assert 0 < got <= want, (name, got, want)
        elif s.startswith("iowq="):
            h = j["iobench"]["helpers"]
            threads = h["peak_threads"]
            cpu = h["iowq_user_us"] + h["iowq_sys_us"]
            if s == "iowq=yes":
                assert threads > 1, f"{path}: force_async=1 but {threads} helper threads"
                assert cpu > 0, f"{path}: force_async=1 but no io-wq CPU: {h}"
            else:
                assert threads <= 1, f"{path}: without force_async {threads} helper threads: {h}"
            print(f"  {name}: io-wq threads={threads} cpu={cpu}us")
        elif s == "mix":
            r, w = j["read"]["total_ios"], j["write"]["total_ios"]
            share = w / (r + w)
            assert 0.2 <= share <= 0.4, f"{path}: write share {share:.2f}, rwmixwrite=30"
PY
}

# run NAME JOBFILE [ENV=VALUE...] -- [iobench args...]: runs one job file
# with the given knobs, JSON to $out/NAME.json, and expects exit 0.
run() {
  local name=$1 job=$2
  shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    envs+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift
  echo "run $name: ${envs[*]} $job $*"
  env "${envs[@]}" "$bin" "$seeds/$job" "$@" --output-format=json --output="$out/$name.json" \
    2>"$out/$name.err"
  local rc=$?
  [ $rc -eq 0 ] || fail "$name exited $rc: $(cat "$out/$name.err")"
}

small=(IOB_SIZE=16m IOB_RUNTIME=1s)

for where in shm ext; do
  dir=${!where}
  # Seed 000/001: io_uring buffered 4k randread, one pass of 16 MiB.
  run "s000_$where" seed000_io_uring_buffered_randread.fio IOB_DIR="$dir" "${small[@]}" IOB_IODEPTH=8
  check "$out/s000_$where.json" read exact=4096 || fail "seed 000 on $where"
  run "s001_$where" seed001_io_uring_force_async.fio IOB_DIR="$dir" "${small[@]}" IOB_IODEPTH=8
  check "$out/s001_$where.json" read exact=4096 || fail "seed 001 on $where"

  # Seed 002: libaio, buffered=0 (O_DIRECT), depth 64 and 20000, batches of 8.
  # 16 MiB of 64k random reads with a random map: exactly 256 I/Os.
  for qd in 64 20000; do
    run "s002_${qd}_$where" seed002_libaio_randread.fio IOB_DIR="$dir" IOB_SIZE=16m IOB_IODEPTH=$qd
    check "$out/s002_${qd}_$where.json" read exact=256 || fail "seed 002 depth $qd on $where"
  done

  # Seed 003: 252 pvsync2 threads of 64k rw (30% writes), time_based,
  # group_reporting. 256 KiB each keeps the layout at 63 MiB. The time-based
  # runs here are kept short: each one keeps the cores busy for its whole
  # runtime, and this script runs in three CI stages (release, ASan, TSan).
  name=s003_$where
  echo "run $name: 252 threads"
  IOB_DIR=$dir IOB_SIZE=256k IOB_RUNTIME=500ms "$bin" "$seeds/seed003_pvsync2_rw_dir.fio" \
    --output-format=normal,json >"$out/$name.txt" 2>"$out/$name.err" ||
    fail "$name exited $?: $(cat "$out/$name.err")"
  grep -q '^mytest: (groupid=0, jobs=252)' "$out/$name.txt" || fail "$name: no 'jobs=252' header"
  grep -Eq '^   READ: bw=[0-9.]+[KMG]iB/s \(' "$out/$name.txt" || fail "$name: no READ: bw= line"
  grep -Eq '^  WRITE: bw=[0-9.]+[KMG]iB/s \(' "$out/$name.txt" || fail "$name: no WRITE: bw= line"
  sed -n '/^{/,/^}/p' "$out/$name.txt" >"$out/$name.json"
  check "$out/$name.json" rw mix || fail "$name JSON"
  [ "$(ls "$dir" | grep -c '^mytest\.[0-9]*\.0$')" -eq 252 ] || fail "$name: not 252 files"
  rm -f "$dir"/mytest.*

  # Seed 004 on a file (the loop device below is the real target): every
  # engine, every pattern, direct=1.
  for e in io_uring libaio psync; do
    run "s004_${e}_$where" "seed004_$e.fio" IOB_DEV="$dir/seed004.dat" IOB_SIZE=16m \
      IOB_RUNTIME=100ms
    check "$out/s004_${e}_$where.json" own || fail "seed 004 $e on $where"
  done
done

# Seed 000 vs 001 (Jens's question): with force_async=1 at depth 32 every
# buffered read goes to io-wq workers, whose CPU iobench counts; without it
# ext4's async buffered reads need (almost) no helper.
run s000_qd32 seed000_io_uring_buffered_randread.fio IOB_DIR="$ext" "${small[@]}" IOB_IODEPTH=32
check "$out/s000_qd32.json" read iowq=no || fail "seed 000 helpers"
run s001_qd32 seed001_io_uring_force_async.fio IOB_DIR="$ext" "${small[@]}" IOB_IODEPTH=32
check "$out/s001_qd32.json" read iowq=yes || fail "seed 001 helpers"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
  echo "note: not root (or no losetup): block-device variants ran on files only"
  echo "ok"
  exit 0
fi
truncate -s 64M "$ext/loop.img"
loop=$(losetup -f --show "$ext/loop.img" 2>"$out/losetup.err") || {
  loop=""
  echo "note: losetup failed ($(cat "$out/losetup.err")): block-device variants ran on files only"
  echo "ok"
  exit 0
}

echo "run s003_blockdev: 252 threads on $loop"
IOB_DEV=$loop IOB_SIZE=4m IOB_RUNTIME=500ms "$bin" "$seeds/seed003_pvsync2_rw_blockdev.fio" \
  --output-format=normal,json >"$out/s003_dev.txt" 2>"$out/s003_dev.err" ||
  fail "seed 003 on $loop exited $?: $(cat "$out/s003_dev.err")"
grep -Eq '^   READ: bw=' "$out/s003_dev.txt" || fail "s003 on $loop: no READ: bw= line"
grep -Eq '^  WRITE: bw=' "$out/s003_dev.txt" || fail "s003 on $loop: no WRITE: bw= line"
sed -n '/^{/,/^}/p' "$out/s003_dev.txt" >"$out/s003_dev.json"
check "$out/s003_dev.json" rw mix || fail "seed 003 on $loop JSON"

for e in io_uring libaio psync; do
  run "s004_${e}_dev" "seed004_$e.fio" IOB_DEV="$loop" IOB_SIZE=16m IOB_RUNTIME=200ms
  check "$out/s004_${e}_dev.json" own || fail "seed 004 $e on $loop"
done
echo "ok"
