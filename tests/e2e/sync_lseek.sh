#!/usr/bin/env bash
# The sync and vsync engines seek only when the file position is not where
# the I/O starts (docs/engines.md), counted with strace on the data file:
#  - a sequential read of a file just opened starts at position 0: no lseek
#    (iobench used to seek to 0 once per pass; fio 3.33 issues none);
#  - loops=2: the second pass starts at 0 again while the descriptor is at
#    the end of the region, so one lseek (fio closes and reopens the file
#    between loops, so its second pass needs none);
#  - offset=16k: the first I/O is not at 0, one lseek.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"
command -v strace >/dev/null || { echo "SKIP: strace not installed"; exit 77; }
f=$tmp/data
head -c 81920 /dev/zero >"$f"

# seeks TOOL ARGS...: lseek(…, SEEK_SET) calls on the data file.
seeks() {
  local tool=$1
  shift
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -y -e trace=lseek -o "$tmp/trace" "$tool" --name=j --filename="$f" --bs=4k \
    --output-format=terse "$@" >/dev/null 2>"$tmp/err" ||
    { echo "exit $?: $(head -c 300 "$tmp/err")"; return; }
  grep -c "lseek([0-9]*<$f>, [0-9]*, SEEK_SET)" "$tmp/trace"
}
for e in sync vsync; do
  expect_eq "$e read" "$(seeks "$bin" --ioengine=$e --rw=read)" 0
  expect_eq "$e write" "$(seeks "$bin" --ioengine=$e --rw=write)" 0
  expect_eq "$e read loops=2" "$(seeks "$bin" --ioengine=$e --rw=read --loops=2)" 1
  expect_eq "$e read offset=16k" "$(seeks "$bin" --ioengine=$e --rw=read --offset=16k)" 1
done
# fio 3.33's sync engine: none for one pass or two (its vsync seeks before
# every I/O: 20 here).
if fio_side; then
  expect_eq "fio sync read" "$(seeks fio --ioengine=sync --rw=read)" 0
  expect_eq "fio sync read loops=2" "$(seeks fio --ioengine=sync --rw=read --loops=2)" 0
fi
# The file service opens a file at its turn (openfiles=1 over 2 files):
# each new descriptor is at 0, so no seek either.
head -c 81920 /dev/zero >"$tmp/data.0"
head -c 81920 /dev/zero >"$tmp/data.1"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
  strace -f -y -e trace=lseek -o "$tmp/trace" "$bin" --name=j --filename="$tmp/data.0:$tmp/data.1" \
  --bs=4k --ioengine=sync --rw=read --openfiles=1 --file_service_type=sequential \
  --output-format=terse >/dev/null 2>"$tmp/err" || fail "openfiles=1: exit $?: $(cat "$tmp/err")"
expect_eq "sync openfiles=1" "$(grep -c "lseek([0-9]*<$tmp/data\.[01]>, [0-9]*, SEEK_SET)" "$tmp/trace")" 0
[ "$fails" -eq 0 ]
