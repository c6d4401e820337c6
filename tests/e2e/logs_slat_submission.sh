#!/bin/bash
# The slat log is written when an I/O is issued, as fio 3.33's
# add_slat_sample: a line carries the submission's time and the file is in
# submission order (the order of write_iolog), where the clat file is in
# completion order. iobench wrote the slat line at the completion, with its
# time: the slat file was in completion order. io_uring at iodepth 16 on a
# file; one pass (no time_based), so every offset is issued once.
# $1: iobench binary, $2: source dir.
source "$2/tests/e2e/setup.bash"
"$bin" --list-engines | grep -qE "^io_uring +available" ||
  { echo "skip: io_uring not available"; exit 77; }

run() {  # TOOL PREFIX: one pass of randrw, the lat logs with offsets and write_iolog
  local tool=$1 p=$2
  "$tool" --name="$p" --filename="$tmp/f" --ioengine=io_uring --iodepth=16 --rw=randrw --bs=4k \
    --size=4m --write_lat_log="$p" --log_offset=1 --write_iolog="$p.iolog" \
    --output-format=json >"$p.json" 2>err || fail "$tool $p: exit $?: $(cat err)"
}
# check PREFIX: prints "issue-order=yes|no times=ok|bad reordered=yes|no lines=N/N".
check() {
  python3 - "$1" <<'PY'
import json, sys
p = sys.argv[1]
t = open(p + ".json").read()
job = json.loads(t[t.find("{"):])["jobs"][0]
n = job["read"]["slat_ns"]["N"] + job["write"]["slat_ns"]["N"]
issued = [f[3] for f in (l.split() for l in open(p + ".iolog"))
          if len(f) == 5 and f[2] in ("read", "write")]
slat = [l.split(", ") for l in open(p + "_slat.1.log")]
clat = [l.split(", ") for l in open(p + "_clat.1.log")]
# Each offset is issued once: the slat line's time is the submission's, not
# after its completion's.
done = {f[4]: int(f[0]) for f in clat}
times = all(int(f[0]) <= done.get(f[4], -1) for f in slat)
print("issue-order=%s times=%s reordered=%s lines=%d/%d" % (
    "yes" if [f[4] for f in slat] == issued else "no", "ok" if times else "bad",
    "yes" if [f[4] for f in clat] != issued else "no", len(slat), n))
PY
}

want="issue-order=yes times=ok reordered=yes lines=1024/1024"
run "$bin" t
got=$(check t)
case "$got" in
  *reordered=no*) echo "skip: io_uring completed every I/O in issue order here ($got)"; exit 77 ;;
esac
expect_eq "slat lines in submission order, at submission times" "$got" "$want"
if fio_side; then
  run fio fio_t
  got=$(check fio_t)
  # fio's own completions may come in issue order in its run: only the rest.
  expect_eq "fio: slat lines in submission order" "${got/reordered=no/reordered=yes}" "$want"
fi

[ "$fails" -eq 0 ] && echo "ok: slat logged at submission"
[ "$fails" -eq 0 ]
