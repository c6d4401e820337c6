#!/usr/bin/env bash
# end_fsync / fsync_on_close in time_based jobs, as fio 3.33: a pass that
# fio ends by closing its files (its do_io returns: a sequential job over
# several files, or over one file whose size is no multiple of bs) ends with
# the loop's end sync, one per file, logged "close close open s close open s
# close"; a pass that wraps in place (size a multiple of bs, random) does
# not, and the job syncs once at its end. Counted from each tool's
# write_iolog as syncs per pass (the pass count depends on the runtime, the
# ratio does not); the JSON sync count stays 0 (fio does not count end
# syncs). iobench used to sync once per file at the job's end only.
# $1: iobench binary, $2: source dir. Exit 77: skip.
source "$2/tests/e2e/setup.bash"

# check TOOL NAME PER_PASS NFILES ARGS...: the job writes PER_PASS blocks a
# pass over NFILES files; its log must hold NFILES syncs per finished pass,
# plus the end's (none when the runtime stopped it where a pass ended).
check() {
  local tool=$1 name=$2 per=$3 nf=$4
  shift 4
  rm -f log
  local sync
  sync=$(job_counts err "$(cmd "$tool")" --name=j --bs=4k --rw=write --time_based=1 \
    --write_iolog=log "$@" | awk '{print $1 == 0 ? $6 : "error " $1}')
  [ "$sync" = 0 ] || fail "$tool $name: JSON sync total_ios $sync, want 0 ($(cat err))"
  local w s
  w=$(grep -c ' write ' log)
  s=$(grep -c ' sync ' log)
  local passes=$((w / per))
  if [ "$passes" -lt 2 ]; then
    echo "note: $tool $name: $w writes, fewer than 2 passes: not judged"
    return
  fi
  if [ "$per" -eq 0 ] || [ "$s" -lt $((nf * passes)) ] || [ "$s" -gt $((nf * (passes + 1))) ]; then
    fail "$tool $name: $s syncs for $w writes ($passes passes of $per over $nf files)"
  fi
}
# check_once TOOL NAME ARGS...: a pass that wraps in place: one sync per file.
check_once() {
  local tool=$1 name=$2
  shift 2
  rm -f log
  job_counts err "$(cmd "$tool")" --name=j --bs=4k --time_based=1 --write_iolog=log "$@" >/dev/null
  local s
  s=$(grep -c ' sync ' log)
  [ "$s" = 1 ] || fail "$tool $name: $s syncs, want 1 ($(cat err))"
}

for t in $(tools); do
  for opt in end_fsync fsync_on_close; do
    check "$t" "null nrfiles=2 $opt" 4 2 --ioengine=null --size=16k --nrfiles=2 \
      --runtime=20ms --$opt=1
    check "$t" "psync nrfiles=2 $opt" 20 2 --ioengine=psync --size=80k --nrfiles=2 \
      --runtime=100ms --$opt=1
    check "$t" "psync size=42k $opt" 10 1 --ioengine=psync --size=42k --runtime=100ms --$opt=1
    check "$t" "libaio nrfiles=2 $opt" 10 2 --ioengine=libaio --iodepth=4 --size=40k \
      --nrfiles=2 --runtime=100ms --$opt=1
    check "$t" "io_uring size=42k $opt" 10 1 --ioengine=io_uring --iodepth=4 --size=42k \
      --runtime=100ms --$opt=1
    check_once "$t" "psync size=40k $opt" --rw=write --ioengine=psync --size=40k \
      --runtime=50ms --$opt=1
    check_once "$t" "psync randwrite $opt" --rw=randwrite --ioengine=psync --size=40k \
      --runtime=50ms --$opt=1
  done
  # The log between two passes over two files, as fio writes it.
  rm -f log
  job_counts err "$(cmd "$t")" --name=j --bs=4k --rw=write --time_based=1 --ioengine=null \
    --size=16k --nrfiles=2 --runtime=20ms --end_fsync=1 --write_iolog=log >/dev/null
  got=$(sed -n '4,20p' log | awk '{printf "%s%s ", substr($2, length($2)), substr($3, 1, 1)}')
  expect_eq "$t pass end log" "0o 0w 1o 1w 0w 1w 0c 1c 0o 0s 0c 1o 1s 1c 0o 0w 1o " "$got"
done
[ "$fails" -eq 0 ]
