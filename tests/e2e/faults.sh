#!/bin/bash
# ctest-cost: 25
# Faults during a run (issue 6), on real files and a real small filesystem:
#  - ENOSPC on a 1 MiB tmpfs (root: mount), psync, io_uring and libaio: the
#    job's err=28, the first error's file and offset in the normal and JSON
#    reports, exit 1; continue_on_error=all goes on and counts every error;
#    ignore_error with fio's per-direction lists.
#  - a target deleted mid-run: reads go on from the open descriptor.
#  - a target truncated mid-run: reads past the new end see EOF (short reads
#    and zero-length reads), the job neither hangs nor crashes.
#  - EAGAIN under pvsync2 nowait=1: counted per direction.
# $1: iobench binary, $2: source dir. Exit 77: skip (nothing could run).
set -u
source "$(dirname "$0")/fio_side.bash"
bin=$(readlink -f "$1")
[ -x "$bin" ] || { echo "skip: no binary"; exit 77; }
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }

work=$(mktemp -d /var/tmp/iobench-faults.XXXXXX)
mnt="$work/small"
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mnt" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fails=0
ran=0
fail() {
  echo "FAIL $*"
  fails=$((fails + 1))
}

# jq-like field access: json FILE EXPR (EXPR in Python over `d`, the document
# that starts at the first line that is exactly "{").
json() {
  python3 - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
start = text.find("\n{\n") + 1 if not text.startswith("{") else 0
d = json.JSONDecoder().raw_decode(text[start:])[0]  # the normal report follows
j = d["jobs"][0]
print(eval(sys.argv[2]))
PY
}

# run NAME WANT_RC -- command...: runs with a 20 s timeout into $work/NAME.out/.err
run() {
  local name=$1 want=$2
  shift 3
  ran=$((ran + 1))
  timeout 20 "$@" >"$work/$name.out" 2>"$work/$name.err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$name: exit $rc, want $want"
    sed 's/^/  /' "$work/$name.err" | head -5
    return 1
  fi
  echo "ok   $name (exit $rc)"
  return 0
}

expect_eq() {  # NAME GOT WANT
  [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# ---- ENOSPC on a 1 MiB tmpfs ----
if [ "$(id -u)" -ne 0 ]; then
  echo "skip ENOSPC cases: mounting a small tmpfs needs root"
elif ! mkdir -p "$mnt" || ! mount -t tmpfs -o size=1m tmpfs "$mnt"; then
  echo "skip ENOSPC cases: mount -t tmpfs failed"
else
  mounted=1
  engines="psync io_uring libaio"
  for e in $engines; do
    if ! "$bin" --list-engines | grep -qE "^$e +available"; then
      echo "skip ENOSPC with $e: $("$bin" --list-engines | grep -E "^$e ")"
      continue
    fi
    rm -f "$mnt"/*
    # 4 MiB into 1 MiB: the 17th 64 KiB write is the first that cannot be
    # written. iodepth=1 keeps "first" exact.
    if run "enospc-$e" 1 -- "$bin" --name=w --ioengine="$e" --filename="$mnt/f" --rw=write \
      --size=4m --bs=64k --output-format=normal,json; then
      out="$work/enospc-$e.out"
      grep -q "err=28 (write $mnt/f offset=1048576 length=65536: No space left on device)" "$out" ||
        fail "enospc-$e: no err=28 line with file and offset"
      grep -q "     first error: write $mnt/f offset=1048576 length=65536: No space left on device$" \
        "$out" || fail "enospc-$e: no 'first error' line"
      expect_eq "enospc-$e json error" "$(json "$out" 'j["error"]')" 28
      expect_eq "enospc-$e json first_error" \
        "$(json "$out" 'j["iobench"]["first_error"]["error"], j["iobench"]["first_error"]["file"], j["iobench"]["first_error"]["offset"], j["iobench"]["first_error"]["ddir"]')" \
        "(28, '$mnt/f', 1048576, 'write')"
      expect_eq "enospc-$e written" "$(json "$out" 'j["write"]["io_bytes"]')" 1048576
      # The failed write is an I/O for total_ios (fio's total_io_u), not a
      # dropped one and not a latency sample; fio 3.33 reads the same.
      expect_eq "enospc-$e total_ios" \
        "$(json "$out" 'j["write"]["total_ios"], j["write"]["drop_ios"], j["write"]["clat_ns"]["N"]')" \
        "(17, 0, 16)"
      grep -q "issued rwts: total=0,17,0,0 short=0,0,0,0 dropped=0,0,0,0" "$out" ||
        fail "enospc-$e: issued rwts without the failed write in total"
      expect_eq "enospc-$e errors" "$(json "$out" 'j["iobench"]["total_errors"]')" 1
    fi
    rm -f "$mnt"/*
    # With a deeper queue the first error is still ENOSPC at or past 1 MiB.
    if run "enospc-$e-qd8" 1 -- "$bin" --name=w --ioengine="$e" --iodepth=8 --filename="$mnt/f" \
      --rw=write --size=4m --bs=64k --output-format=json; then
      expect_eq "enospc-$e-qd8" \
        "$(json "$work/enospc-$e-qd8.out" 'j["error"], j["iobench"]["first_error"]["offset"] >= 1048576')" \
        "(28, True)"
    fi
    rm -f "$mnt"/*
    # continue_on_error=all alone goes on after EIO and EILSEQ only (fio's
    # default ignore_error list): ENOSPC still stops the job, exit 1.
    if run "enospc-$e-continue" 1 -- "$bin" --name=w --ioengine="$e" --filename="$mnt/f" \
      --rw=write --size=4m --bs=64k --continue_on_error=all --output-format=json; then
      expect_eq "enospc-$e-continue" \
        "$(json "$work/enospc-$e-continue.out" 'j["error"], j["total_err"], j["write"]["io_bytes"]')" \
        "(28, 1, 1048576)"
    fi
    rm -f "$mnt"/*
    # At iodepth=8 the writes in flight when ENOSPC stops the job fail too:
    # iobench.total_errors counts each, total_err the one stop (fio 3.33's
    # async engines give 0, its psync 1: docs/safety.md).
    if run "enospc-$e-continue-qd8" 1 -- "$bin" --name=w --ioengine="$e" --iodepth=8 \
      --filename="$mnt/f" --rw=write --size=4m --bs=64k --continue_on_error=all \
      --output-format=json; then
      expect_eq "enospc-$e-continue-qd8" \
        "$(json "$work/enospc-$e-continue-qd8.out" 'j["error"], j["total_err"], j["write"]["io_bytes"], j["iobench"]["total_errors"] >= 1')" \
        "(28, 1, 1048576, True)"
    fi
    rm -f "$mnt"/*
  done
  # ignore_error lists are per direction, as fio's: read,write,verify. A
  # list lets its class go on: every one of the 48 writes past the end fails
  # and is counted; err= shows the first (28) as fio's does, and the exit
  # code is 0 since no error stopped the job.
  if run enospc-ignore-write 0 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" \
    --rw=write --size=4m --bs=64k --ignore_error=,ENOSPC --output-format=json; then
    expect_eq enospc-ignore-write \
      "$(json "$work/enospc-ignore-write.out" 'j["error"], j["total_err"], j["iobench"]["total_errors"], j["write"]["io_bytes"], j["iobench"]["first_error"]["error"]')" \
      "(28, 48, 48, 1048576, 28)"
  fi
  [ -s "$work/enospc-ignore-write.err" ] &&
    fail "enospc-ignore-write: stderr without error_dump: $(head -2 "$work/enospc-ignore-write.err")"
  rm -f "$mnt"/*
  # error_dump=1: each tolerated error on stderr as it happens (fio prints
  # its "io_u error" line for each of the 48 too).
  if run enospc-error-dump 0 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" \
    --rw=write --size=4m --bs=64k --ignore_error=,ENOSPC --error_dump=1 --output-format=json; then
    expect_eq enospc-error-dump "$(grep -c "^iobench: job 'w': write $mnt/f offset=[0-9]* length=65536: No space left on device (err=28, tolerated)$" "$work/enospc-error-dump.err")" 48
  fi
  rm -f "$mnt"/*
  # With numjobs each line names the clone, as the end-of-run error lines
  # do: both clones write the same 1 MiB file, so each fails 48 times.
  if run enospc-error-dump-clones 0 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" \
    --rw=write --size=4m --bs=64k --numjobs=2 --ignore_error=,ENOSPC --error_dump=1 \
    --output-format=json; then
    for c in 0 1; do
      expect_eq "enospc-error-dump-clone$c" "$(grep -c "^iobench: job 'w' #$c: write $mnt/f offset=[0-9]* length=65536: No space left on device (err=28, tolerated)$" "$work/enospc-error-dump-clones.err")" 48
    done
  fi
  rm -f "$mnt"/*
  run enospc-ignore-read-only 1 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" \
    --rw=write --size=4m --bs=64k --ignore_error=ENOSPC --output-format=json
  rm -f "$mnt"/*
  # fio 3.33 on the same jobs: the same exit code, err and error count.
  if fio_side; then
    for args in "--continue_on_error=all" "--ignore_error=,ENOSPC" "--ignore_error=ENOSPC" \
      "--continue_on_error=write --ignore_error=EIO,ENOSPC:EIO"; do
      got=()
      for tool in fio "$bin"; do
        rm -f "$mnt"/*
        # shellcheck disable=SC2086
        timeout 20 "$tool" --name=w --ioengine=psync --filename="$mnt/f" --rw=write --size=4m \
          --bs=64k --fallocate=none $args --output-format=json >"$work/cmp.out" 2>/dev/null
        got+=("$?:$(json "$work/cmp.out" 'j["error"], j.get("total_err"), j["write"]["total_ios"], j["write"]["drop_ios"], j["write"]["io_bytes"]')")
      done
      expect_eq "enospc vs fio [$args]" "${got[1]}" "${got[0]}"
    done
    ran=$((ran + 1))
  fi
  rm -f "$mnt"/*
  # fill_device: the write that finds the filesystem full ends the job
  # without an error and counts in total_ios, as in fio 3.33 (17 of 64 KiB
  # into 1 MiB: 16 wrote, 1 found it full). size= past the free space
  # (without size=, see tmpfs_full.sh).
  if run fill-device 0 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" --rw=write \
    --bs=64k --size=4m --fill_device=1 --output-format=json; then
    expect_eq fill-device \
      "$(json "$work/fill-device.out" 'j["error"], j["write"]["total_ios"], j["write"]["io_bytes"], j["write"]["clat_ns"]["N"]')" \
      "(0, 17, 1048576, 16)"
  fi
  rm -f "$mnt"/*
  # The first write fails (the filesystem is already full): one I/O in
  # total_ios, but no runtime, IOPS or bandwidth for the direction, as fio's
  # (runtime 0, iops 0).
  head -c 1m /dev/zero >"$mnt/full" 2>/dev/null
  if run first-write-fails 1 -- "$bin" --name=w --ioengine=psync --filename="$mnt/f" --rw=write \
    --size=1m --bs=64k --fallocate=none --output-format=json; then
    expect_eq first-write-fails \
      "$(json "$work/first-write-fails.out" 'j["error"], j["write"]["total_ios"], j["write"]["runtime"], j["write"]["iops"], j["write"]["bw"]')" \
      "(28, 1, 0, 0.0, 0)"
  fi
  rm -f "$mnt"/*
  umount "$mnt" && mounted=""
fi

# ---- a target deleted mid-run ----
# Time-based reads keep going on the open descriptor after the name is gone
# (POSIX: the inode lives while it is open). No error, exit 0.
f="$work/deleted"
"$bin" --name=r --ioengine=psync --filename="$f" --rw=randread --size=8m --bs=4k \
  --time_based --runtime=2 --output-format=json >"$work/deleted.out" 2>"$work/deleted.err" &
pid=$!
for _ in $(seq 100); do [ -e "$f" ] && break; sleep 0.05; done
sleep 0.5
rm -f "$f"
if timeout 20 tail --pid=$pid -f /dev/null; then
  wait $pid
  rc=$?
  ran=$((ran + 1))
  expect_eq "deleted-mid-run exit" "$rc" 0
  expect_eq "deleted-mid-run" "$(json "$work/deleted.out" 'j["error"], j["read"]["total_ios"] > 0')" "(0, True)"
  echo "ok   deleted-mid-run"
else
  fail "deleted-mid-run: hung"
  kill -KILL $pid
fi

# ---- a target truncated mid-run ----
# To a size that is not a multiple of bs: a short read, then EOF. Time-based
# jobs wrap and go on until their runtime; size-based jobs end at EOF. The
# truncation comes 0.3 s after the file appears, well inside the 1 s runtime
# (and the rate-limited job's 1 s): a time-based job burns a core for its
# whole runtime, and this script runs in the release and ASan CI stages.
for e in psync io_uring; do
  "$bin" --list-engines | grep -qE "^$e +available" || continue
  for mode in "--rw=read --time_based --runtime=1" "--rw=randread --time_based --runtime=1" \
    "--rw=read --rate_iops=2000"; do
    f="$work/trunc"
    name="truncated-$e-$(echo "$mode" | tr -d ' -' | tr '=' '_')"
    # shellcheck disable=SC2086
    "$bin" --name=r --ioengine=$e --iodepth=4 --filename="$f" $mode --size=8m --bs=4k \
      --output-format=json >"$work/$name.out" 2>"$work/$name.err" &
    pid=$!
    for _ in $(seq 100); do [ -e "$f" ] && break; sleep 0.05; done
    sleep 0.3
    truncate -s 100123 "$f"
    if timeout 20 tail --pid=$pid -f /dev/null; then
      wait $pid
      rc=$?
      ran=$((ran + 1))
      expect_eq "$name exit" "$rc" 0
      expect_eq "$name" "$(json "$work/$name.out" 'j["error"], j["read"]["total_ios"] > 0')" "(0, True)"
      echo "ok   $name"
    else
      fail "$name: hung"
      kill -KILL $pid
    fi
    rm -f "$f"
  done
done

# ---- EAGAIN under pvsync2 nowait=1 ----
# Buffered reads with RWF_NOWAIT of pages not in the page cache (iobench drops
# the file's cache before the run, invalidate=1) fail with EAGAIN.
f="$work/nowait"
if ! "$bin" --list-engines | grep -qE "^pvsync2 +available"; then
  echo "skip nowait: pvsync2 is not available"
else
  timeout 20 "$bin" --name=r --ioengine=pvsync2 --nowait=1 --filename="$f" --rw=randread \
    --size=8m --bs=4k --output-format=normal,json >"$work/nowait.out" 2>"$work/nowait.err"
  rc=$?
  ran=$((ran + 1))
  if [ "$rc" -eq 0 ]; then
    echo "skip nowait: no EAGAIN on $(df --output=fstype "$work" | tail -1) (all pages cached?)"
  else
    expect_eq "nowait exit" "$rc" 1
    grep -q "err=11 (read $f offset=[0-9]* length=4096: Resource temporarily unavailable; nowait=1 at <cmdline>: the kernel would have had to wait for this I/O)" \
      "$work/nowait.out" || fail "nowait: no err=11 line"
    expect_eq nowait \
      "$(json "$work/nowait.out" 'j["error"], j["iobench"]["eagain"]["read"], j["iobench"]["total_errors"]')" \
      "(11, 1, 1)"
    # continue_on_error=read alone does not cover EAGAIN (fio: EIO and
    # EILSEQ only); ignore_error=EAGAIN does: every EAGAIN is counted, as
    # eagain and as an error, and the job goes on (exit 0, err=11 shown).
    # A failed read is an I/O in total_ios, as fio's total_io_u: 2048 in all.
    timeout 20 "$bin" --name=r --ioengine=pvsync2 --nowait=1 --continue_on_error=read \
      --filename="$f" --rw=randread --size=8m --bs=4k --output-format=json \
      >"$work/nowait1.out" 2>"$work/nowait1.err"
    expect_eq "nowait continue_on_error=read exit" "$?" 1
    timeout 20 "$bin" --name=r --ioengine=pvsync2 --nowait=1 --ignore_error=EAGAIN \
      --filename="$f" --rw=randread --size=8m --bs=4k --output-format=json \
      >"$work/nowait2.out" 2>"$work/nowait2.err"
    expect_eq "nowait-continue exit" "$?" 0
    expect_eq nowait-continue \
      "$(json "$work/nowait2.out" 'j["error"], j["iobench"]["eagain"]["read"] == j["iobench"]["total_errors"] > 0, j["read"]["total_ios"] == 2048')" \
      "(11, True, True)"
    echo "ok   nowait"
  fi
fi

echo "$ran cases, $fails failed"
[ "$ran" -gt 0 ] || exit 77
[ "$fails" -eq 0 ]
