#!/usr/bin/env bash
# fsync=N, fdatasync=N and end_fsync where passes meet, as fio 3.33 does
# them, read from each tool's write_iolog ("o" open, "w" write, "s" sync,
# "c" close, one letter per line):
#  - a loop's owed sync is logged (and issued) before the loop's "close",
#    and again after the next loop opens its file (psync); a queueing
#    engine's loop ends on its bytes and has only the second;
#  - a time_based pass that fio ends by closing its files (size not a
#    multiple of bs) starts over with the owed sync once more; one whose
#    size divides only wraps and syncs once;
#  - loops left when io_size ran out: one more, empty loop, with its end
#    sync ("o s c");
#  - nrfiles=2: the sync takes the file of the I/O that would come next,
#    and that I/O goes to the file after it.
# The same expectations are checked on fio when it is installed.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
source "$2/tests/e2e/fio_side.bash"
source "$2/tests/e2e/check.bash"
base=/var/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm # tmpfs: cheap syncs
tmp=$(mktemp -d "$base/iobench_syncpass.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tools=("$bin")
fio_side && tools+=(fio)

# ops TOOL ARGS...: the job's write_iolog as letters; with MULTI set each
# is prefixed by its file number ("1s") and the closes are left out (fio
# logs a file's close when its part of the pass is done, iobench at the
# pass's end).
ops() {
  local tool=$1
  shift
  rm -rf "$tmp/d" "$tmp/log"
  mkdir "$tmp/d"
  "$tool" --name=a --directory="$tmp/d" --bs=4k --write_iolog="$tmp/log" \
    --output-format=terse "$@" >/dev/null 2>"$tmp/err" ||
    { echo "exit $?: $(head -c 300 "$tmp/err")"; return; }
  awk 'NR > 2 && $3 != "add" && !(multi && $3 == "close") {
         n = split($2, p, ".");
         printf "%s%s", (multi ? p[n] : ""), substr($3, 1, 1)
       }' multi="$MULTI" "$tmp/log"
}
MULTI=
for t in "${tools[@]}"; do
  n=$(basename "$t")
  w4="wwww"
  expect_eq "$n psync loops=2 fsync=4" "$(ops "$t" --rw=write --size=64k --loops=2 --fsync=4)" \
    "o${w4}s${w4}s${w4}s${w4}scos${w4}s${w4}s${w4}s${w4}c"
  expect_eq "$n libaio loops=2 fsync=4" \
    "$(ops "$t" --ioengine=libaio --rw=write --size=64k --loops=2 --fsync=4)" \
    "o${w4}s${w4}s${w4}s${w4}cos${w4}s${w4}s${w4}s${w4}c"
  # end_fsync after a loop that ended on its own fsync=N sync: not again.
  expect_eq "$n psync loops=2 fsync=4 end_fsync" \
    "$(ops "$t" --rw=write --size=64k --loops=2 --fsync=4 --end_fsync=1)" \
    "o${w4}s${w4}s${w4}s${w4}scos${w4}s${w4}s${w4}s${w4}sc"
  # io_size ran out in the first loop (psync's loop goes on to the end of
  # the file): the second loop is empty but syncs.
  expect_eq "$n psync io_size=32k loops=2 end_fsync" \
    "$(ops "$t" --rw=write --size=64k --io_size=32k --loops=2 --end_fsync=1)" \
    "o${w4}${w4}${w4}${w4}scosc"
  expect_eq "$n psync number_ios=4 loops=3 end_fsync" \
    "$(ops "$t" --rw=write --size=64k --number_ios=4 --loops=3 --end_fsync=1)" \
    "o${w4}${w4}${w4}scosc"
  expect_eq "$n libaio io_size=32k loops=3 end_fsync" \
    "$(ops "$t" --ioengine=libaio --rw=write --size=64k --io_size=32k --loops=3 --end_fsync=1)" \
    "o${w4}${w4}${w4}${w4}sco${w4}${w4}scosc"
done
MULTI=1
for t in "${tools[@]}"; do
  n=$(basename "$t")
  # fsync=3 over two files: fio syncs file 1 each time (the sync takes the
  # turn file 0's write would have had next: 0 1 0 s1 0 1 0 s1 ...).
  expect_eq "$n nrfiles=2 fsync=3" "$(ops "$t" --nrfiles=2 --rw=write --size=64k --fsync=3)" \
    "0o0w1o1w0w1s0w1w0w1s0w1w0w1s0w1w0w1s1w1w1w1s1w"
  expect_eq "$n nrfiles=2 fsync=4 loops=2" \
    "$(ops "$t" --nrfiles=2 --rw=write --size=64k --fsync=4 --loops=2)" \
    "0o0w1o1w0w1w0s1w0w1w0w1s0w1w0w1w0s1w0w1w0w1s0o0s1o1w0w1w0w1s0w1w0w1w0s1w0w1w0w1s0w1w0w1w"
done
MULTI=

# time_based: between two writes, as many syncs as the writes so far owe,
# and one more before the first write of a pass that fio starts anew.
# pass_syncs TOOL FSYNC PER_PASS ARGS...: "ok PASSES" or what broke.
pass_syncs() {
  local tool=$1 every=$2 per=$3
  shift 3
  ops "$tool" --ioengine=psync --rw=write --fsync="$every" --time_based --runtime=200ms "$@" |
    awk -v every="$every" -v per="$per" -v restart="$RESTART" '
      { n = split($0, c, "") }
      END {
        w = 0; s = 0; bad = ""
        for (i = 1; i <= n; i++) {
          if (c[i] == "s") { s++; continue }
          if (c[i] != "w") continue
          if (w > 0) {
            want = (w % every == 0) + (restart && w % every == 0 && w % per == 0)
            if (s != want && bad == "") bad = "write " w ": " s " syncs before it, want " want
          }
          w++; s = 0
        }
        # Too few writes (a loaded machine) proves less but is no failure:
        # a pass test never decides on timing.
        if (bad == "" && w < 3 * per) print "note: only " w " writes in the runtime" > "/dev/stderr"
        if (bad != "") print bad; else print "ok"
      }'
}
for t in "${tools[@]}"; do
  n=$(basename "$t")
  RESTART=1
  expect_eq "$n time_based size=42k fsync=1" "$(pass_syncs "$t" 1 10 --size=42k)" ok
  expect_eq "$n time_based size=30k fsync=7" "$(pass_syncs "$t" 7 7 --size=30k)" ok
  expect_eq "$n time_based size=30k fsync=3" "$(pass_syncs "$t" 3 7 --size=30k)" ok
  RESTART=0
  expect_eq "$n time_based size=40k fsync=1" "$(pass_syncs "$t" 1 10 --size=40k)" ok
  expect_eq "$n time_based randwrite size=42k fsync=1" \
    "$(pass_syncs "$t" 1 10 --size=42k --rw=randwrite)" ok
done
[ "$fails" -eq 0 ]
