#!/bin/bash
# End to end: with --sweep ioengine=..., an engine option is judged at each
# point with the point's engine, not against the job's own engine before
# the points are applied (docs/sweep.md). A job file's nowait=1 under the
# default psync refused --sweep ioengine=pvsync2,io_uring (exit 2), though
# the same job ran with --ioengine=pvsync2.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
source "$2/tests/e2e/setup.bash"
printf '[j]\nsize=64k\nnowait=1\n' >nw.fio
printf '[global]\nnowait=1\n[j]\nsize=64k\n' >g.fio
printf '[global]\nioengine=io_uring\nfixedbufs=1\n[j]\nsize=64k\n' >fb.fio
# points ARGS...: the point headings --parse-only prints, exit 0.
points() {
  local out
  out=$("$bin" "$@" --parse-only 2>"$tmp/e")
  local rc=$?
  [ $rc -eq 0 ] || echo "exit $rc: $(head -c 300 "$tmp/e")"
  grep '^===' <<<"$out" | tr '\n' ' '
}
expect_eq "job's nowait=1, ioengine=pvsync2,io_uring" \
  "$(points nw.fio --sweep ioengine=pvsync2,io_uring)" \
  "=== ioengine=pvsync2 === === ioengine=io_uring === "
expect_eq "[global] nowait=1, ioengine=pvsync2,io_uring" \
  "$(points g.fio --sweep ioengine=pvsync2,io_uring)" \
  "=== ioengine=pvsync2 === === ioengine=io_uring === "
expect_eq "--nowait=1 before --name, ioengine=io_uring,pvsync2" \
  "$(points --nowait=1 --name=j --size=64k --sweep ioengine=io_uring,pvsync2)" \
  "=== ioengine=io_uring === === ioengine=pvsync2 === "
expect_eq "nowait=1 with two keys" \
  "$(points nw.fio --sweep bs=4k,8k --sweep ioengine=pvsync2)" \
  "=== bs=4k ioengine=pvsync2 === === bs=8k ioengine=pvsync2 === "
# [global]'s own engine still makes its option valid at any point.
expect_eq "[global] io_uring fixedbufs=1, ioengine=psync,io_uring" \
  "$(points fb.fio --sweep ioengine=psync,io_uring)" \
  "=== ioengine=psync === === ioengine=io_uring === "
# A point whose engine does not take the option is refused, by its value,
# before anything runs; without an engine sweep the job file is refused as before.
"$bin" nw.fio --sweep ioengine=pvsync2,psync --output-format=json >"$tmp/o" 2>"$tmp/e"
expect_eq "ioengine=pvsync2,psync: exit" "$?" 2
expect_eq "ioengine=pvsync2,psync: message" "$(cat "$tmp/e")" \
  "iobench: --sweep ioengine=psync: nw.fio:3:1: option 'nowait' needs ioengine=io_uring, libaio or pvsync2; job 'j' uses psync"
[ -s "$tmp/o" ] && fail "ioengine=pvsync2,psync ran: $(head -c 200 "$tmp/o")"
"$bin" nw.fio --sweep bs=4k,8k --parse-only >"$tmp/o" 2>"$tmp/e"
expect_eq "bs=4k,8k: exit" "$?" 2
grep -q "^nw.fio:3:1: option 'nowait' needs ioengine=.*; job 'j' uses psync" "$tmp/e" ||
  fail "bs=4k,8k: $(cat "$tmp/e")"
[ "$fails" -eq 0 ]
