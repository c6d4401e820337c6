#!/bin/bash
# verify_state_save / verify_state_load across runs, on ext4 (/var/tmp):
#  1. a write run saves local-w-0-verify.state in the cwd (fio's name);
#  2. a verify_only run with verify_state_load passes on the untouched file;
#  3. one flipped byte is found: right file, block offset and byte, err=84
#     (EILSEQ) in the report, the message on stderr, exit code 1;
#  4. verify_dump writes the block as read and as expected into the cwd;
#  5. verify_fatal stops at the first of two bad blocks;
#  6. a stale block (an older copy restored) is found as stale.
# $1: iobench binary, $2: source dir.
source "$(dirname "$0")/verify_common.bash"

f="$tmp/data"
job=(--name=w --filename="$f" --size=1M --bs=4k --rw=randwrite --verify=crc32c)

run "${job[@]}"
[ "$rc" -eq 0 ] || fail "write run: exit $rc"
[ -s local-w-0-verify.state ] || fail "no state file local-w-0-verify.state in the cwd"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 1048576 ] || fail "write run: no verify reads"

# 2. verify_only + verify_state_load on the untouched file.
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "verify_only on a good file: exit $rc"
[ "$(jget 'doc["jobs"][0]["write"]["io_bytes"]')" = 0 ] || fail "verify_only wrote"
[ "$(jget 'doc["jobs"][0]["read"]["io_bytes"]')" = 1048576 ] || fail "verify_only read bytes"
# 2b. verify_only reads only, so --readonly allows it; the writing job is refused.
run "${job[@]}" --verify_only=1 --verify_state_load=1 --readonly
[ "$rc" -eq 0 ] || fail "verify_only under --readonly: exit $rc"
run "${job[@]}" --readonly
[ "$rc" -eq 2 ] || fail "a verify write job under --readonly: exit $rc, want 2"
echo "ok: state save/load verifies across two runs"

# 3. One byte flipped in the data of block 3 (offset 12288, data byte 1000).
cp "$f" pristine
flip "$f" 13288
"$bin" "${job[@]}" --verify_only=1 --verify_state_load=1 >out.txt 2>err.txt
rc=$?
[ "$rc" -eq 1 ] || fail "flipped byte: exit $rc, want 1"
grep -q "verify: $f: .* at offset 12288, length 4096" err.txt || fail "stderr lacks file/offset"
grep -q "first differing byte at file offset 13288 (block byte 1000)" err.txt || fail "stderr lacks the byte"
[ "$(grep -c "^iobench: job 'w': verify:" err.txt)" = 1 ] || fail "want exactly one failure"
grep -q "err=84 (verify: $f: .* at offset 12288" out.txt || fail "report lacks err=84 and message"
echo "ok: flipped byte found at the right offset, exit 1"

# 4. verify_dump: both blocks in the cwd, differing in exactly that byte.
run "${job[@]}" --verify_only=1 --verify_state_load=1 --verify_dump=1
[ "$rc" -eq 1 ] || fail "verify_dump run: exit $rc"
[ -f data.12288.received ] && [ -f data.12288.expected ] || fail "dump files missing: $(ls)"
python3 - <<'PY' || fail "dump contents"
r = open("data.12288.received", "rb").read(); e = open("data.12288.expected", "rb").read()
assert len(r) == len(e) == 4096, (len(r), len(e))
d = [i for i in range(4096) if r[i] != e[i]]
assert d == [1000], d
PY
echo "ok: verify_dump wrote .received and .expected"

# 5. Two bad blocks: without verify_fatal both are reported, with it one.
flip "$f" $((200 * 4096 + 300))
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "two bad blocks: exit $rc"
[ "$(grep -c "^iobench: job 'w': verify:" err.txt)" = 2 ] || fail "want two failures"
grep -q "and 1 more verify failures" out.json || fail "error message lacks the count"
run "${job[@]}" --verify_only=1 --verify_state_load=1 --verify_fatal=1
[ "$rc" -eq 1 ] || fail "verify_fatal: exit $rc"
[ "$(grep -c "^iobench: job 'w': verify:" err.txt)" = 1 ] || fail "verify_fatal: want one failure"
echo "ok: verify_fatal stops at the first failure"

# 6. Stale block: a second write run continues the generations of the saved
# state; restoring block 7 from the first run's copy makes it stale.
cp pristine "$f"
run "${job[@]}" --verify_state_load=1
[ "$rc" -eq 0 ] || fail "second write run: exit $rc"
dd if=pristine of="$f" bs=4096 skip=7 seek=7 count=1 conv=notrunc status=none
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "stale block: exit $rc, want 1"
grep -q "stale block at offset 28672" err.txt || fail "stale block not reported as stale"
grep -q "generation 1 is older than" err.txt || fail "stale message lacks the generations"
echo "ok: stale block found"

# 6b. A lost write across runs of another seed: run 1 (randseed=7) and run 2
# (randseed=8) each write generation 1; block 5 of run 1 put back over run
# 2's is self-consistent, at the generation the state expects, but its
# header names the other seed. verify_only with run 2's state passed it
# (fio 3.33 does too); the state names the writer, so it is found.
seedjob=(--name=w --filename="$f" --size=256k --bs=4k --rw=write --verify=crc32c)
rm -f "$f" local-w-0-verify.state
run "${seedjob[@]}" --randseed=7
[ "$rc" -eq 0 ] || fail "seed 7 writer: exit $rc"
dd if="$f" of=seed7.blk bs=4096 skip=5 count=1 status=none
run "${seedjob[@]}" --randseed=8
[ "$rc" -eq 0 ] || fail "seed 8 writer: exit $rc"
run "${seedjob[@]}" --randseed=8 --verify_only=1 --verify_state_load=1
[ "$rc" -eq 0 ] || fail "seed 8 verify_only before the lost write: exit $rc"
dd if=seed7.blk of="$f" bs=4096 seek=5 count=1 conv=notrunc status=none
run "${seedjob[@]}" --randseed=8 --verify_only=1 --verify_state_load=1
[ "$rc" -eq 1 ] || fail "block of the seed-7 run: exit $rc, want 1"
grep -q "verify: $f: misplaced block at offset 20480, length 4096: written by another job, clone or seed" err.txt ||
  fail "block of the seed-7 run: message: $(cat err.txt)"
[ "$(grep -c "^iobench: job 'w': verify:" err.txt)" = 1 ] || fail "seed-7 block: want one failure"
echo "ok: a block an earlier run of another seed left is found"

# 7. A writer stopped early (number_ios, io_size; a signal leaves the same
# state) wrote part of its random-map plan: verify_state_load reads back
# only what it wrote, in the order written, as fio 3.33 (100 reads, the
# writer's 100 offsets). iobench replayed the whole plan: 256 reads, the
# 156 never written blocks counted as skipped.
for stop in --number_ios=100 --io_size=400k; do
  rm -f "$f" local-w-0-verify.state
  "$bin" "${job[@]}" "$stop" --do_verify=0 --write_iolog=w.log >/dev/null 2>err.txt ||
    fail "$stop writer: exit $?"
  "$bin" "${job[@]}" --verify_only=1 --verify_state_load=1 --write_iolog=v.log \
    --output-format=json >out.json 2>err.txt || fail "$stop verify_only: exit $?"
  [ "$(jget 'doc["jobs"][0]["read"]["total_ios"]')" = 100 ] ||
    fail "$stop: verify_only read $(jget 'doc["jobs"][0]["read"]["total_ios"]'), want 100"
  [ "$(awk '$3 == "write" {print $4}' w.log)" = "$(awk '$3 == "read" {print $4}' v.log)" ] ||
    fail "$stop: the reads are not the writer's writes in order"
  "$bin" "${job[@]}" --verify_only=1 --verify_state_load=1 >out.txt 2>err.txt
  grep -q "verify: 0 blocks written, 100 verified, 0 skipped, 0 failed" out.txt ||
    fail "$stop: counts: $(grep 'verify:' out.txt)"
done
echo "ok: a stopped writer's state: only its writes are read back"

# Without a state file, verify_state_load fails before any I/O, naming it.
rm -f local-w-0-verify.state
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -ne 0 ] || fail "missing state: exit 0"
grep -q "local-w-0-verify.state" err.txt || fail "missing state file not named"
grep -q "'w': verify_state_load=1 (<cmdline>): open local-w-0-verify.state: No such file or directory" err.txt ||
  fail "missing state: message"
# A state "file" that is a directory: bad input, nothing ran (exit 2).
mkdir local-w-0-verify.state
run "${job[@]}" --verify_only=1 --verify_state_load=1
[ "$rc" -eq 2 ] || fail "directory as state: exit $rc, want 2"
grep -q "'w': verify_state_load=1 (<cmdline>): local-w-0-verify.state is not a regular file" err.txt ||
  fail "directory as state: message: $(cat err.txt)"
rmdir local-w-0-verify.state
# A state saved for another region (a writer at offset=8k, a reader at
# offset=0) is refused before any I/O, naming offset=; it used to load and
# read the writer's region.
rm -f "$f"
run --name=w --filename="$f" --size=64k --offset=8k --bs=4k --rw=write --verify=crc32c
[ "$rc" -eq 0 ] || fail "writer at offset=8k: exit $rc"
run --name=w --filename="$f" --size=64k --offset=0 --bs=4k --rw=write --verify=crc32c \
  --verify_only=1 --verify_state_load=1
[ "$rc" -eq 2 ] || fail "state of another region: exit $rc, want 2"
grep -q "'w': verify_state_load=1 (<cmdline>): local-w-0-verify.state: saved for a region at offset 8192, this job's starts at 0: use the writer's offset=" err.txt ||
  fail "state of another region: message: $(cat err.txt)"
# Set in a job file, a state-load error names its file and line.
printf '[w]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\nverify=crc32c\nverify_only=1\nverify_state_load=1\n' \
  "$f" >load.fio
"$bin" load.fio --output-format=json >out.json 2>err.txt
rc=$?
[ "$rc" -eq 2 ] || fail "job file, state of another region: exit $rc, want 2"
grep -q "'w': verify_state_load=1 (load.fio:8): local-w-0-verify.state: saved for a region at offset 8192" err.txt ||
  fail "job file, state of another region: message: $(cat err.txt)"
echo "all ok"
