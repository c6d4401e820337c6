#!/bin/bash
# Start-up cost: OpenSSL's libcrypto is loaded only by a job that verifies
# with one of its digests (md5, sha*). Linked at start-up, its relocations were
# a quarter of the page faults of every run, verify or not (~110 of ~410 for a
# 1-I/O job). Checked with the dynamic loader's own log (LD_DEBUG=files), so
# nothing here is timed.
# args: $1 = iobench binary
set -u
bin=$1
fail=0
dir=$(mktemp -d /dev/shm/iobench-lazycrypto.XXXXXX)
trap 'rm -rf "$dir"' EXIT

if readelf -d "$bin" 2>/dev/null | grep -q 'NEEDED.*libcrypto'; then
  echo "FAIL: $bin names libcrypto as NEEDED (it is loaded on demand)"
  fail=1
fi

loaded() {  # prints what the loader said about libcrypto while running "$@"
  LD_DEBUG=files "$bin" "$@" 2>&1 >/dev/null | grep 'file=libcrypto' | head -1
}

# No digest of libcrypto's: not loaded, whatever else the job does.
for v in 0 crc32c xxhash; do
  out=$(loaded --name=n --ioengine=psync --filename="$dir/f" --size=64k --rw=write \
    --verify="$v" --output-format=json)
  if [ -n "$out" ]; then
    echo "FAIL: verify=$v loaded libcrypto: $out"
    fail=1
  fi
done

# A digest of libcrypto's: loaded, and the write-then-verify run passes.
for v in md5 sha256 sha3-512; do
  out=$(loaded --name=d --ioengine=psync --filename="$dir/f" --size=64k --rw=randwrite \
    --verify="$v" --output-format=json)
  case $out in
    *"dynamically loaded"*) ;;
    *) echo "FAIL: verify=$v did not load libcrypto on demand: '$out'"; fail=1 ;;
  esac
  if ! json=$("$bin" --name=d --ioengine=psync --filename="$dir/f" --size=64k --rw=randwrite \
      --verify="$v" --output-format=json 2>&1); then
    echo "FAIL: verify=$v run failed: $json"
    fail=1
  elif ! python3 -c '
import json, sys
j = json.loads(sys.argv[1])["jobs"][0]
assert j["error"] == 0, j["error"]
assert j["write"]["total_ios"] == 16 and j["read"]["total_ios"] == 16, (j["write"]["total_ios"], j["read"]["total_ios"])
' "$json"; then
    echo "FAIL: verify=$v: wrong counts or an error in the JSON"
    fail=1
  fi
done

[ $fail = 0 ] && echo "ok: libcrypto loaded only for md5/sha* verify"
exit $fail
