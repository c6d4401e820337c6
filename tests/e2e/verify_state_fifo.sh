#!/bin/bash
# A verify state name that is no regular file. verify_state_load with a FIFO
# there fails before any I/O, naming the file and the option; it used to
# block in open(2) for a writer that never came (SIGTERM did not end it).
# verify_state_save refuses a FIFO or a directory at the name before any
# I/O: the rename at the end used to remove the FIFO silently, and to fail
# over a directory after the whole run. Each run is under `timeout`, so a
# regression fails instead of hanging.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

st=local-w-0-verify.state
job=(--name=w --filename=f --size=256k --bs=4k --rw=write --verify=crc32c)
trun() {  # run ARGS... under timeout
  timeout -k 3 20 "$bin" "$@" --output-format=json >out.json 2>err.txt
  rc=$?
}
trun "${job[@]}" --do_verify=0
[ "$rc" -eq 0 ] && [ -f "$st" ] || fail "writer: exit $rc"
cp f f.good

rm "$st"
mkfifo "$st"
trun "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 2 ] || fail "FIFO as state to load: exit $rc, want 2 (124/137: it hung)"
want="iobench: job 'w': verify_state_load=1 (<cmdline>): $st is not a regular file (a FIFO): a state is what verify_state_save wrote there"
[ "$(cat err.txt)" = "$want" ] || fail "FIFO to load: message $(cat err.txt), want $want"
echo "ok   a FIFO to load is refused at once"

# Saving over the FIFO: refused before any I/O, the FIFO is left alone.
rm f
trun "${job[@]}" --do_verify=0
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "FIFO as state to save: exit $rc"
want="iobench: job 'w': verify_state_save: refusing to replace $st: it is a FIFO, not a state file; remove it, or run where that name is free"
[ "$(cat err.txt)" = "$want" ] || fail "FIFO to save: message $(cat err.txt), want $want"
[ -p "$st" ] || fail "FIFO to save: the FIFO was replaced"
[ ! -e f ] || fail "FIFO to save: the job wrote its file"
echo "ok   a FIFO at the state's name is not replaced"

rm "$st"
mkdir "$st"
printf '[w]\nfilename=f\nsize=256k\nbs=4k\nrw=write\nverify=crc32c\nverify_state_save=1\n' >save.fio
timeout -k 3 20 "$bin" save.fio --output-format=json >out.json 2>err.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "directory as state to save: exit $rc"
grep -qx "iobench: job 'w': verify_state_save=1 (save.fio:7): refusing to replace $st: it is a directory, not a state file; remove it, or run where that name is free" err.txt ||
  fail "directory to save: message $(cat err.txt)"
[ ! -e f ] || fail "directory to save: the job wrote its file"
echo "ok   a directory at the state's name is refused before any I/O"
echo "all ok"
