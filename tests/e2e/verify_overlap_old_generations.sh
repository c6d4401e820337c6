#!/bin/bash
# Damage in a chunk rewritten many times under overlap is found. A time_based
# writer at QD32 over 32k rewrites each 4k block thousands of times with
# several writes to it in flight; a byte flipped in every block must fail
# every block in a verify_only run with verify_state_load. The check of a
# possible tear searched only the last 64 generations for a sector's writer
# and skipped the chunk when none matched: "0 verified, 8 skipped, 0
# failed", exit 0 (fio 3.33: "crc32c: verify failed at file f offset 0",
# exit 1). Good data still verifies with 0 failed and 0 skipped.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

# state_top: the highest generation among the state's chunks marked
# overlapped and the file offset of that chunk (0 0 when none is).
state_top() {
  python3 - <<'PY'
import struct
d = open("local-w-0-verify.state", "rb").read()
p = 8 + struct.calcsize("<IIQQIIQ")
base, cnt = struct.unpack_from("<QQ", d, p)
p += 16
top, at = 0, 0
for i in range(cnt):
    gen, flags = struct.unpack_from("<II", d, p)
    p += 8
    if flags & 2 and not flags & 1 and gen > top:
        top, at = gen, base + i * 4096
print(top, at)
PY
}

# check NAME WANT_FAILED OFFSETS JOB...: write, verify clean, flip a byte at
# each offset (top+N: N bytes into the chunk state_top names), verify
# again: WANT_FAILED failed, none skipped, exit 1.
check() {
  local name=$1 want=$2 offsets=$3
  shift 3
  rm -f f local-w-0-verify.state
  run "$@"
  [ "$rc" -eq 0 ] || fail "$name: write: exit $rc"
  local top at
  read -r top at <<<"$(state_top)"
  if [ "$top" -le 64 ]; then
    echo "note: $name: no chunk was rewritten more than 64 times under overlap (max $top)"
  fi
  run "$@" --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 0 ] || fail "$name: good data: exit $rc"
  grep -q ' 0 skipped, 0 failed' out.json || fail "$name: good data: not all verified"
  for o in $offsets; do
    case $o in top+*) o=$((at + ${o#top+})) ;; esac
    flip f "$o"
  done
  run "$@" --verify_only=1 --verify_state_load=1
  [ "$rc" -eq 1 ] || fail "$name: damaged: exit $rc, want 1"
  grep -q " 0 skipped, $want failed" out.json || fail "$name: damaged: want $want failed, 0 skipped"
  grep -q "no mix of them" err.txt || [ "$top" -eq 0 ] || fail "$name: the message does not say so"
  echo "ok: $name: $want damaged chunks fail (overlapped generations up to $top)"
}

ran=0
for eng in io_uring libaio posixaio; do
  engine_ok $eng || continue
  ran=1
  J=(--name=w --filename=f --size=32k --bs=4k --rw=write --iodepth=32 --verify=crc32c
    --time_based --runtime=1 --ioengine=$eng)
  check "$eng write" 8 "1000 5096 9192 13288 17384 21480 25576 29672" "${J[@]}"
done
[ "$ran" -eq 1 ] || { echo "skip: no queueing engine is usable"; exit 77; }
eng=io_uring
engine_ok io_uring || eng=libaio
engine_ok $eng || eng=posixaio
J=(--name=w --filename=f --size=256k --bssplit=4k/50:8k/30:16k/20 --rw=randwrite --norandommap
  --iodepth=32 --verify=md5 --time_based --runtime=1 --ioengine=$eng)
check "$eng bssplit md5" 1 top+904 "${J[@]}"
echo "all ok"
