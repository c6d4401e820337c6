#!/bin/bash
# A run refused partway through its setup (exit 2) leaves nothing behind
# (docs/safety.md): job a's file, laid out before job b's could not be
# opened, is removed; so is job a's log file when job b's log cannot be
# created, and the message names the job and the option. Both used to stay
# (wa, 1 MiB; an empty okbw_bw.1.log). As root the runs go as nobody.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
source "$2/tests/e2e/check.bash"
source "$2/tests/e2e/unprivileged.bash"
unprivileged_workdir 777
cd "$work" || exit 1
mkdir rodir
chmod 555 rodir

# rootf empty: b's layout fails ("extend", it exists); 1 MiB: b's open fails in setup.
for size in 0 1048576; do
  rm -f wa rootf
  head -c $size /dev/zero >rootf
  chmod 444 rootf
  [ "$(id -u)" -eq 0 ] && chmod 644 rootf
  "${as[@]}" "$bin" --eta=never --name=a --rw=write --size=1m --filename=wa --name=b --rw=write \
    --size=1m --filename=rootf >out 2>err
  rc=$?
  [ "$rc" -eq 2 ] || fail "rootf $size: exit $rc"
  # Both name the option that named the file (the open used to say only
  # "job 'b': open rootf: Permission denied").
  want="job 'b': filename=rootf at <cmdline>: open rootf: Permission denied"
  [ $size -eq 0 ] &&
    want="job 'b': filename=rootf at <cmdline>: extend rootf (0 -> 1048576 bytes): Permission denied"
  grep -qF "$want" err || fail "rootf $size: stderr: $(cat err)"
  [ -e wa ] && fail "rootf $size: job a's file wa was left ($(stat -c %s wa) bytes)"
  [ "$(stat -c %s rootf)" -eq $size ] || fail "rootf $size: rootf changed"
done

printf '[global]\nioengine=null\nsize=1m\n[a]\nwrite_bw_log=okbw\n[b]\nwrite_lat_log=rodir/lat\n' >j.fio
"${as[@]}" "$bin" --eta=never j.fio >out 2>err
rc=$?
[ "$rc" -eq 2 ] || fail "log: exit $rc"
grep -qx "iobench: job 'b': write_lat_log=rodir/lat (j.fio:7): open log file rodir/lat_slat.2.log: Permission denied" err ||
  fail "log: stderr: $(cat err)"
ls okbw* >/dev/null 2>&1 && fail "log: job a's log left: $(ls okbw*)"
[ -s out ] && fail "log: a report was printed"
[ "$fails" -eq 0 ] || exit 1
echo "ok   a refused setup leaves no file behind"
