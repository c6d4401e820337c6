#!/usr/bin/env bash
# A write that failed (ENOSPC, let through by ignore_error) is not read back
# by the verify phase, in a random job as in a sequential one, as in fio
# 3.33: 2 MiB of 4k writes on a 1 MiB tmpfs, 256 fail, 256 verify reads.
# A random job read back all 512 blocks ("256 verified, 256 skipped").
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"

[ "$(id -u)" -eq 0 ] || { echo "skip: mounting a 1 MiB tmpfs needs root"; exit 77; }
mkdir small
mount -t tmpfs -o size=1m none small || { echo "skip: cannot mount tmpfs"; exit 77; }
trap 'cd /; umount "$tmp/small"; rm -rf "$tmp"' EXIT

for engine in psync libaio; do
  for rw in randwrite write; do
    rm -f small/*
    "$bin" --name=w --directory=small --rw=$rw --bs=4k --size=2m --ioengine=$engine --iodepth=16 \
      --verify=crc32c --continue_on_error=all --ignore_error=,ENOSPC --verify_state_save=0 \
      --output-format=json --output=out.json >/dev/null 2>err
    got=$(python3 -c 'import json
j = json.load(open("out.json"))["jobs"][0]
print(j["read"]["total_ios"], [n for n in j["iobench"]["notes"] if "blocks written" in n][0])')
    expect_eq "$engine $rw: reads, note" "$got" \
      "256 verify: 256 blocks written, 256 verified, 0 skipped, 0 failed (verify_interval 4096 bytes)"
  done
done
[ "$fails" -eq 0 ]
