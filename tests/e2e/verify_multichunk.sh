#!/bin/bash
# ctest-labels: threads
# A read that covers several verify_interval chunks reports every bad chunk,
# not only the first. bs=16k verify_interval=4k, 64 KiB, bytes flipped in
# chunks 1, 3 (same read) and 10: iobench reported offsets 4096 and 40960
# only ("11 verified, 0 skipped, 2 failed": 13 of 16 chunks counted); fio
# 3.33 reports 4096, 12288 and 40960 (its verify_io_u goes on to the next
# header unless verify_fatal is set). Checked inline and with verify_async,
# on psync and libaio; exit 1 and err=84 as before; verify_fatal=1 stops at
# the first bad chunk of the read, also with continue_on_error=verify (exit
# 0, total_err 1, as fio), which without verify_fatal tolerates them all
# (exit 0, total_err 3); 12 bad chunks in one read print the first 10.
# $1: iobench binary, $2: source dir.
VERIFY_FS=${VERIFY_FS:-/dev/shm}
source "$(dirname "$0")/verify_common.bash"

job=(--name=w --filename=m1 --size=64k --bs=16k --verify_interval=4k --rw=write --verify=crc32c
  --verify_state_save=0)
run "${job[@]}" --do_verify=0
[ "$rc" -eq 0 ] || fail "write: exit $rc"
for o in 5096 13288 42960; do flip m1 $o; done

# The bad blocks on stderr, sorted (verify_async threads may finish reads
# in any order).
bad() { grep -o "block at offset [0-9]*" err.txt | awk '{print $4}' | sort -n | tr '\n' ' '; }
note() { jget '[n for n in doc["jobs"][0]["iobench"]["notes"] if n.startswith("verify: ")][0]'; }

ran=0
for eng in psync libaio; do
  if ! engine_ok "$eng"; then echo "skip $eng: not usable here"; continue; fi
  for extra in "--verify_async=0" "--verify_async=2"; do
    # shellcheck disable=SC2086
    run "${job[@]}" --verify_only=1 --ioengine=$eng --iodepth=4 $extra
    [ "$rc" -eq 1 ] || fail "$eng $extra: exit $rc, want 1"
    [ "$(bad)" = "4096 12288 40960 " ] || fail "$eng $extra: bad blocks '$(bad)'"
    grep -q "first differing byte at file offset 13288 (block byte 1000)" err.txt ||
      fail "$eng $extra: the second bad chunk of the read is not located"
    case "$(note)" in
      *"13 verified, 0 skipped, 3 failed"*) ;;
      *) fail "$eng $extra: note '$(note)'" ;;
    esac
    [ "$(jget 'doc["jobs"][0]["error"]')" = 84 ] || fail "$eng $extra: job error is not EILSEQ"
    ran=$((ran + 1))
  done
done
[ "$ran" -gt 0 ] || { echo "skip: no engine usable"; exit 77; }
# The job's error names the first failure and counts the rest.
"$bin" "${job[@]}" --verify_only=1 >out.txt 2>err.txt
[ $? -eq 1 ] || fail "normal output: exit not 1"
grep -q "err=84 (verify: m1: bad data block at offset 4096, .*(and 2 more verify failures))" out.txt ||
  fail "job error line: $(grep err= out.txt)"
echo "ok: every bad chunk of a read is reported and counted ($ran runs)"

# verify_fatal: one read at a time, so the job stops after the first chunk.
run "${job[@]}" --verify_only=1 --iodepth=1 --verify_fatal=1
[ "$rc" -eq 1 ] || fail "verify_fatal: exit $rc"
[ "$(bad)" = "4096 " ] || fail "verify_fatal: bad blocks '$(bad)', want only 4096"
case "$(note)" in *"1 verified, 0 skipped, 1 failed"*) ;; *) fail "verify_fatal: note '$(note)'" ;; esac
# Also when the error policy tolerates verify errors (fio 3.33: 1 read,
# total_err 1, exit 0); without verify_fatal every chunk is checked.
run "${job[@]}" --verify_only=1 --verify_fatal=1 --continue_on_error=verify
[ "$rc" -eq 0 ] || fail "verify_fatal continue_on_error=verify: exit $rc"
[ "$(bad)" = "4096 " ] || fail "verify_fatal continue_on_error=verify: bad blocks '$(bad)'"
[ "$(jget '"%d %d" % (doc["jobs"][0]["total_err"], doc["jobs"][0]["read"]["total_ios"])')" = "1 1" ] ||
  fail "verify_fatal continue_on_error=verify: total_err/reads"
run "${job[@]}" --verify_only=1 --continue_on_error=verify
[ "$rc" -eq 0 ] || fail "continue_on_error=verify: exit $rc"
[ "$(bad)" = "4096 12288 40960 " ] || fail "continue_on_error=verify: bad blocks '$(bad)'"
[ "$(jget 'doc["jobs"][0]["total_err"]')" = 3 ] || fail "continue_on_error=verify: total_err"
echo "ok: verify_fatal stops at the first bad chunk of a read, tolerated or not"

# The printing cap counts chunks: 12 bad chunks in one 64 KiB read print 10.
job=(--name=w --filename=m2 --size=64k --bs=64k --verify_interval=4k --rw=write --verify=crc32c
  --verify_state_save=0)
run "${job[@]}" --do_verify=0
for c in 0 1 2 3 4 5 6 7 8 9 10 11; do flip m2 $((c * 4096 + 2000)); done
run "${job[@]}" --verify_only=1
[ "$rc" -eq 1 ] || fail "12 bad chunks: exit $rc"
[ "$(grep -c "^iobench: job 'w': verify:" err.txt)" = 10 ] || fail "12 bad chunks: not 10 printed"
grep -q "more verify failures; the rest are counted, not printed" err.txt ||
  fail "12 bad chunks: no 'the rest are counted' line"
case "$(note)" in *"4 verified, 0 skipped, 12 failed"*) ;; *) fail "12 bad chunks: note '$(note)'" ;; esac
echo "ok: 12 bad chunks in one read: 10 printed, 12 counted"
echo "all ok"
