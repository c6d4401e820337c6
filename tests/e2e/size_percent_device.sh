#!/usr/bin/env bash
# size=N% with an offset on a block device (root: a 16 MiB loop device over
# a file): the region ends at the device's end, as in fio 3.33, instead of
# being refused as "beyond the end". offset=90% size=10% bs=64k reads the
# 25 blocks up to the end. filesize= is the device's size, as in fio 3.33:
# offset=128k filesize=512k reads [128k, 512k) (96 blocks; iobench read
# [128k, 640k), past what the job named). A read job leaves the device's
# bytes unchanged.
# $1: iobench binary, $2: source dir. Exit 77: skip (not root, no losetup).
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (loop device)"; exit 77; }
for t in losetup python3 sha256sum; do
  command -v $t >/dev/null || { echo "SKIP: needs $t"; exit 77; }
done
. "$src/tests/e2e/fio_side.bash"

work=$(mktemp -d /var/tmp/iobench-pctdev.XXXXXX)
loop=""
loop2=""
cleanup() {
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  [ -n "$loop2" ] && losetup -d "$loop2" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

python3 -c "
import os
with open('$work/img', 'wb') as f:
    f.write(os.urandom(16 << 20))"
loop=$(losetup -f --show "$work/img" 2>/dev/null) || { loop=""; echo "SKIP: no loop device"; exit 77; }
before=$(sha256sum "$loop" | cut -d' ' -f1)

while IFS='|' read -r opts want; do
  got=$(job_counts "$work/err" "$bin" --name=d --ioengine=psync --rw=read --filename="$loop" $opts)
  [ "$got" = "$want" ] || fail "iobench $opts: got '$got', want '$want': $(cat "$work/err")"
  if fio_side; then
    f=$(job_counts "$work/err" fio --name=d --ioengine=psync --rw=read --filename="$loop" $opts)
    [ "$got" = "$f" ] || fail "$opts: iobench '$got', fio '$f'"
  fi
done <<'EOF'
--bs=64k --offset=90% --size=10%|0 25 1638400 0 0 0
--bs=4k --offset=12m --size=50%|0 1024 4194304 0 0 0
--bs=4k --offset=4k --size=100%|0 4095 16773120 0 0 0
--bs=64k --size=10%|0 25 1638400 0 0 0
--bs=4k --offset=128k --filesize=512k|0 96 393216 0 0 0
--bs=4k --offset=1m --filesize=2m --size=512k|0 128 524288 0 0 0
--bs=4k --offset=25% --filesize=8m|0 1024 4194304 0 0 0
EOF

# Disk stats follow the order of filename= (fio's disk list is in the order
# the files were added); iobench sorted them by path. The second device is
# named first whichever way the names sort.
truncate -s 1M "$work/img2"
if loop2=$(losetup -f --show "$work/img2" 2>/dev/null); then
  for order in "$loop2:$loop" "$loop:$loop2"; do
    "$bin" --name=d --ioengine=psync --rw=read --bs=64k --size=1m --filename="$order" \
      >"$work/out" 2>"$work/err" || fail "two devices $order: $(cat "$work/err")"
    want="$(basename "${order%%:*}") $(basename "${order##*:}")"
    got=$(sed -n '/^Disk stats/,$p' "$work/out" | awk '$1 ~ /^loop[0-9]+:$/ {sub(":", "", $1); printf "%s%s", sep, $1; sep=" "}')
    [ "$got" = "$want" ] || fail "disk stats order for $order: '$got', want '$want'"
  done
else
  loop2=""
  echo "note: no second loop device; disk stats order not checked"
fi

[ "$(sha256sum "$loop" | cut -d' ' -f1)" = "$before" ] || fail "the device's bytes changed"
[ $fails = 0 ] || exit 1
echo "size percent on a device: ok"
