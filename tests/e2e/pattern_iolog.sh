#!/usr/bin/env bash
# Offsets and lengths through the CLI, read from write_iolog (docs/patterns.md):
#  - bssplit sizes are rounded down to a multiple of the direction's smallest,
#    as fio 3.33 does unless bs_unaligned: 4k/50:6k/50 reads 4k only, and the
#    log equals fio's line by line (times aside) when fio is installed;
# $1: iobench binary, $2: source dir.
set -u
bin=$(realpath "$1")
tmp=$(mktemp -d /dev/shm/iobench_pattern_iolog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
notimes() { awk 'NR == 1 { print; next } { $1 = ""; sub(/^ /, ""); print }' "$1"; }
# "count length" per direction of a log
lengths() { awk '$3 == "read" || $3 == "write" { print $3, $5 }' "$1" | sort | uniq -c | tr -s ' '; }

split_case() {  # name, expected "count dir length" lines, fio's log too (0/1), job options
  local name=$1 want=$2 same=$3
  shift 3
  "$bin" --name=j --ioengine=null --size=96k "$@" --write_iolog="ib_$name.log" --output=/dev/null ||
    fail "iobench $name"
  local got
  got=$(lengths "ib_$name.log")
  [ "$got" = "$want" ] || fail "$name: lengths '$got', want '$want'"
  if [ "$same" = 1 ] && command -v fio >/dev/null; then
    fio --name=j --ioengine=null --size=96k "$@" --write_iolog="fio_$name.log" --output=/dev/null ||
      fail "fio $name"
    diff <(notimes "fio_$name.log") <(notimes "ib_$name.log") >"diff_$name" ||
      fail "write_iolog $name differs from fio's: $(head -20 "diff_$name")"
  fi
  echo "ok: $name"
}
split_case split46 " 24 read 4096" 1 --rw=read --bssplit=4k/50:6k/50
split_case split34 " 32 read 3072" 1 --rw=read --bssplit=3k/50:4k/50
# (Random draws are iobench's own: the counts are fio's, the order is not.)
split_case splitrand " 24 read 4096" 0 --rw=randread --bssplit=4k/50:6k/50
split_case splitrw " 7 read 4096
 9 write 8192" 0 --rw=rw --randseed=7 --bssplit=4k/50:6k/50,8k/50:12k/50

# bs_unaligned keeps the sizes: both appear (the draws are iobench's own).
"$bin" --name=j --ioengine=null --size=96k --rw=read --bssplit=4k/50:6k/50 --bs_unaligned=1 \
  --write_iolog=unaligned.log --output=/dev/null || fail "iobench unaligned"
[ "$(awk '$3 == "read" { print $5 }' unaligned.log | sort -u | tr '\n' ' ')" = "4096 6144 " ] ||
  fail "bs_unaligned: lengths $(lengths unaligned.log)"
echo "ok: bs_unaligned keeps 6k"
