#!/bin/bash
# The verify phase of a sequential job reads each write back as it was
# written, as fio 3.33 does: with bsrange or bssplit the reads have the
# writes' offsets and lengths, one read per write. iobench merged the
# written chunks into reads of the largest block size instead (bsrange=4k-32k
# over 256k: 11 writes read back as 8 reads), so the same bytes were checked
# but the read counts, IOPS and latencies were not fio's.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

# same_ios ARGS...: the iolog's reads are its writes, in the same order.
same_ios() {
  rm -f data io.log
  run --name=v --filename=data --size=256k --verify=crc32c --write_iolog=io.log "$@"
  [ "$rc" -eq 0 ] || fail "$*: exit $rc"
  python3 - io.log "$*" <<'PY' || exit 1
import sys
ios = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 5]
w = [(x[3], x[4]) for x in ios if x[2] == "write"]
r = [(x[3], x[4]) for x in ios if x[2] == "read"]
if not w or w != r:
    sys.exit("FAIL: %s: %d writes, %d reads; first difference %s" % (
        sys.argv[2], len(w), len(r),
        next(((a, b) for a, b in zip(w, r) if a != b), None)))
print("ok   %s: %d writes read back as written" % (sys.argv[2], len(w)))
PY
}

same_ios --rw=write --bsrange=4k-32k
same_ios --rw=write --bsrange=4k-32k --loops=3
same_ios --rw=write --bssplit=4k/50:64k/50
same_ios --rw=write:8k --bsrange=4k-16k
same_ios --rw=write --bsrange=4k-32k --nrfiles=2
if engine_ok libaio; then
  same_ios --rw=write --bsrange=4k-32k --ioengine=libaio --iodepth=8
fi
