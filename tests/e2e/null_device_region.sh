#!/usr/bin/env bash
# The null engine on a device (block or character): fio 3.33 sizes the file
# it does not open at size= / nrfiles and, unlike a regular file's, does not
# grow it to offset + size, so the region ends there: size=64k offset=8k
# bs=4k does 14 I/Os, where psync on the device, or null on a regular file,
# does 16. iobench did 16 everywhere. Random jobs do the 14 of the region;
# fio stops at its first random block past the end (5 here, an artefact,
# docs/engines.md). The null engine writes nothing to the device: its
# write counter does not move.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup,
# no loop device). fio 3.33 runs the same jobs unless IOBENCH_TEST_FIO=0.
source "$2/tests/e2e/setup.bash"
command -v losetup >/dev/null || { echo "skip: needs losetup"; exit 77; }
source "$2/tests/e2e/scratch_ext4.bash"
# A 16 MiB image in /var/tmp on a loop device, detached at exit.
scratch_loop 16M 512
stat_file=/sys/block/$(basename "$loop")/stat

# counts TOOL ARGS...: "error reads writes trims" of the job's first clone.
counts() {
  local tool=$1
  shift
  "$(cmd "$tool")" --output-format=json --name=j --ioengine=null --bs=4k "$@" 2>"$tmp/err" |
    python3 -c '
import json, sys
t = sys.stdin.read()
j = json.loads(t[t.find("{"):])["jobs"][0]
print(j["error"], j["read"]["total_ios"], j["write"]["total_ios"], j["trim"]["total_ios"])' ||
    echo "failed: $(head -c 300 "$tmp/err")"
}

# check NAME "WANT" [fio's "WANT" when it differs] -- ARGS...
check() {
  local name=$1 want=$2 want_fio=$2
  shift 2
  [ "$1" != -- ] && want_fio=$1 && shift
  shift
  local tool
  for tool in $(tools); do
    if [ "$tool" = fio ]; then
      expect_eq "fio $name" "$(counts fio --thread "$@")" "$want_fio"
    else
      expect_eq "iobench $name" "$(counts iob "$@")" "$want"
    fi
  done
}

written_before=$(awk '{print $7}' "$stat_file")
for rw in write read trim; do
  case $rw in
  read) want="0 14 0 0" ;; write) want="0 0 14 0" ;; trim) want="0 0 0 14" ;;
  esac
  check "$rw offset=8k" "$want" -- --filename="$loop" --rw=$rw --size=64k --offset=8k
done
check "trimwrite offset=8k" "0 0 14 14" -- --filename="$loop" --rw=trimwrite --size=64k --offset=8k
check "write loops=2" "0 0 28 0" -- --filename="$loop" --rw=write --size=64k --offset=8k --loops=2
# The region is 56 KiB: io_size wraps in it.
check "write io_size=128k" "0 0 32 0" -- --filename="$loop" --rw=write --size=64k --offset=8k \
  --io_size=128k
# 25% of the 64 KiB file: from 16 KiB.
check "write offset=25%" "0 0 12 0" -- --filename="$loop" --rw=write --size=64k --offset=25%
# 3k blocks: the last that fits ends at 62 KiB.
check "write bs=3k" "0 0 18 0" -- --filename="$loop" --rw=write --size=64k --offset=8k --bs=3k
# filesize= below the share ends the region first; above, the share does.
check "write filesize=32k" "0 0 6 0" -- --filename="$loop" --rw=write --size=64k --offset=8k \
  --filesize=32k
check "write filesize=128k" "0 0 14 0" -- --filename="$loop" --rw=write --size=64k --offset=8k \
  --filesize=128k
check "/dev/zero write offset=8k" "0 0 14 0" -- --filename=/dev/zero --rw=write --size=64k \
  --offset=8k
# Random: iobench covers the region's 14 blocks; fio stops at its first
# random offset past the end.
check "randwrite offset=8k" "0 0 14 0" "0 0 5 0" -- --filename="$loop" --rw=randwrite --size=64k \
  --offset=8k
# A regular file grows: 16 in both, whether it exists or not.
truncate -s 1m "$tmp/f"
check "regular file offset=8k" "0 0 16 0" -- --filename="$tmp/f" --rw=write --size=64k --offset=8k
check "new file offset=8k" "0 0 16 0" -- --filename="$tmp/new" --rw=write --size=64k --offset=8k
expect_eq "new file not created" "$([ -e "$tmp/new" ] && echo yes || echo no)" no
# Without offset the whole share, as before.
check "write no offset" "0 0 16 0" -- --filename="$loop" --rw=write --size=64k
expect_eq "sectors written to $loop" "$(($(awk '{print $7}' "$stat_file") - written_before))" 0

[ "$fails" -eq 0 ]
