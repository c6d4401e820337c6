#!/usr/bin/env bash
# nice=N is an increment on the niceness the run starts with, as fio's
# nice(N), clamped to 19: under `nice -n 10`, fio 3.33 runs nice=5 at 15,
# nice=-3 (root) at 7 and nice=15 at 19; iobench set N itself
# (setpriority, absolute: 5, -3, 15), and as a user under `nice -n 10`
# its nice=0 and nice=5 failed with EPERM where fio ran. The worker
# thread's niceness is read by exec_prerun, which its thread starts
# (/proc/self/stat field 19). As nobody, nice=-1 under `nice -n 10`
# still fails (EACCES from setpriority; fio's nice() says EPERM), naming
# the option.
# $1: iobench binary, $2: source dir.
set -u
bin=$(readlink -f "$1")
src=$2
[ -x "$bin" ] || { echo "SKIP: no binary"; exit 77; }
command -v nice >/dev/null || { echo "SKIP: needs nice"; exit 77; }
. "$src/tests/e2e/check.bash"
. "$src/tests/e2e/fio_side.bash"

work=$(mktemp -d /var/tmp/iobench-nice.XXXXXX)
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
cp "$bin" "$work/iobench"
chmod 755 "$work/iobench"
cd "$work" || exit 1

# Prints the job thread's niceness, or the error.
niceness() { # TOOL N [PREFIX...]
  local tool=$1 n=$2
  shift 2
  rm -f n.prerun.txt
  "$@" nice -n 10 "$tool" --name=n --ioengine=null --size=1m --rw=read --thread --nice="$n" \
    --exec_prerun='awk "{print \$19}" /proc/self/stat' >/dev/null 2>err
  if [ -s n.prerun.txt ]; then cat n.prerun.txt; else head -c 300 err | tr '\n' ' '; fi
}

[ "$(nice)" = 0 ] || { echo "SKIP: the test runs under a niceness of $(nice), not 0"; exit 77; }
tools=(./iobench)
fio_side && tools+=(fio)
can_lower=0
[ "$(id -u)" -eq 0 ] && can_lower=1
for tool in "${tools[@]}"; do
  expect_eq "$tool nice=5 under nice 10" "$(niceness "$tool" 5)" 15
  expect_eq "$tool nice=15 under nice 10 (clamped)" "$(niceness "$tool" 15)" 19
  expect_eq "$tool nice=0 under nice 10" "$(niceness "$tool" 0)" 10
  [ $can_lower = 1 ] && expect_eq "$tool nice=-3 under nice 10 (root)" "$(niceness "$tool" -3)" 7
done

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
  user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  expect_eq "nobody nice=5 under nice 10" "$(niceness ./iobench 5 "${user[@]}")" 15
  expect_eq "nobody nice=0 under nice 10" "$(niceness ./iobench 0 "${user[@]}")" 10
  got=$(niceness ./iobench -1 "${user[@]}")
  case $got in
    *"nice=-1"*"Permission denied"* | *"nice=-1"*"Operation not permitted"*) echo "ok   nobody nice=-1: $got" ;;
    *) fail "nobody nice=-1 under nice 10: got '$got', want a permission error naming nice=-1" ;;
  esac
fi

[ "$fails" -eq 0 ] || exit 1
echo "nice is relative: ok"
