#!/bin/bash
# The per-I/O slat log has a line for each I/O whose slat the report counts,
# as fio 3.33's has as many lines as its JSON slat N:
#  - with ramp_time, the I/Os issued in the ramp and completed after it
#    (iodepth - 1 of them) have no slat in the report, and had a line;
#  - an async engine completes a trim inside its submit call: no slat in
#    the report, and every trim had a "0" line (libaio, io_uring, posixaio).
# The clat log keeps a line per completed I/O. $1: iobench binary, $2:
# source dir.
source "$2/tests/e2e/setup.bash"
# n FILE DIR KIND: the JSON's N of KIND (slat_ns, clat_ns) for direction DIR.
n() {
  python3 - "$@" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
print(json.loads(t[t.find("{"):])["jobs"][0][sys.argv[2]][sys.argv[3]]["N"])
PY
}
available() { "$bin" --list-engines | grep -qE "^$1 +available"; }

available libaio || { echo "skip: libaio not available"; exit 77; }
"$bin" --name=r --filename="$tmp/f" --size=2m --bs=4k --ioengine=libaio --iodepth=8 --rw=randread \
  --ramp_time=200ms --runtime=500ms --time_based --write_lat_log=r --log_avg_msec=0 \
  --output-format=json >r.json 2>err || fail "ramp run: $(cat err)"
expect_eq "ramp: slat lines = JSON slat N" "$(wc -l <r_slat.1.log)" "$(n r.json read slat_ns)"
expect_eq "ramp: clat lines = JSON clat N" "$(wc -l <r_clat.1.log)" "$(n r.json read clat_ns)"

if [ "$(id -u)" -ne 0 ]; then
  echo "skip trims: a loop device needs root"
elif truncate -s 8m img && loop=$(losetup -f --show img 2>/dev/null); then
  trap 'losetup -d "$loop"; cd /; rm -rf "$tmp"' EXIT
  for e in libaio io_uring posixaio; do
    available "$e" || continue
    rm -f t_*.log
    "$bin" --name=t --filename="$loop" --direct=1 --size=2m --bs=64k --ioengine="$e" --iodepth=4 \
      --rw=trim --write_lat_log=t --log_avg_msec=0 --output-format=json >t.json 2>err ||
      fail "$e trim: $(cat err)"
    expect_eq "$e trim: slat lines, JSON slat N" "$(wc -l <t_slat.1.log) $(n t.json trim slat_ns)" "0 0"
    expect_eq "$e trim: clat lines" "$(wc -l <t_clat.1.log)" 32
  done
  # Windowed (log_avg_msec): a window of trims has no slat line either.
  rm -f w_*.log
  "$bin" --name=w --filename="$loop" --direct=1 --size=2m --bs=64k --ioengine=libaio --iodepth=4 \
    --rw=trim --write_lat_log=w --log_avg_msec=1 --output-format=json >w.json 2>err ||
    fail "windowed trim: $(cat err)"
  expect_eq "windowed trim: slat lines" "$(wc -l <w_slat.1.log)" 0
  [ "$(wc -l <w_clat.1.log)" -gt 0 ] || fail "windowed trim: no clat line"
else
  echo "skip trims: losetup failed"
fi
[ "$fails" -eq 0 ] && echo "ok: one slat line per slat the report counts"
[ "$fails" -eq 0 ]
