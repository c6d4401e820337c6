#!/bin/bash
# ctest-cost: 10
# ctest-labels: threads
# io_uring's helper threads are named "iou-wrk-<N>"/"iou-sqp-<N>" with N the
# creating thread's tid in the INITIAL pid namespace. Inside a PID namespace
# (a container) gettid() differs, and the io-wq CPU of a job was spread over
# all jobs by submissions while still labelled as their own io-wq, with
# threads=0. Two jobs: 'a' punts every write to io-wq (force_async=1 on tmpfs),
# 'b' reads cached pages inline (no io-wq). Without --mount-proc (/proc is the
# initial namespace's) the helpers must go to 'a' alone; with --mount-proc
# (the container's own /proc: the kernel's number is not visible) the report
# must say the io-wq figures were apportioned, and count the threads.
# $1: iobench binary, $2: source dir. Exit 77: skip.
set -u
bin=$(realpath "$1")
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: unshare -p needs root"; exit 77; }
command -v unshare >/dev/null || { echo "skip: no unshare"; exit 77; }
unshare -p -f --mount-proc true 2>/dev/null || { echo "skip: unshare -p -f --mount-proc fails here"; exit 77; }
work=$(mktemp -d /var/tmp/iobench-pidns.XXXXXX) || exit 1
shm=$(mktemp -d /dev/shm/iobench-pidns.XXXXXX) || exit 1
trap 'cd /; rm -rf "$work" "$shm"' EXIT
cd "$work" || exit 1
head -c 4194304 /dev/urandom >"$work/f"
fails=0
job=(--ioengine=io_uring --iodepth=16
  --name=a --filename="$shm/x" --rw=randwrite --bs=64k --size=32m --number_ios=4096 --force_async=1
  --name=b --filename="$work/f" --rw=randread --bs=4k --size=4m --number_ios=16384 --invalidate=0)

# show FILE: "a_iowq a_peak a_apportioned b_iowq b_apportioned sqpoll_us"
show() {
  python3 -c '
import json, sys
t = open(sys.argv[1]).read()
j = {x["jobname"]: x["iobench"]["helpers"] for x in json.loads(t[t.find("{"):])["jobs"]}
a, b = j["a"], j["b"]
print(a["iowq_sys_us"] + a["iowq_user_us"], a["peak_threads"], int(a.get("apportioned", False)),
      b["iowq_sys_us"] + b["iowq_user_us"], int(b.get("apportioned", False)),
      sum(x["sqpoll_sys_us"] + x["sqpoll_user_us"] for x in (a, b)))' "$1"
}

for mode in host-proc own-proc; do
  pre=(unshare -p -f)
  [ $mode = own-proc ] && pre+=(--mount-proc)
  "${pre[@]}" "$bin" --output-format=json "${job[@]}" >out.json 2>err.txt
  rc=$?
  read -r a_iowq a_peak a_app b_iowq b_app sqp < <(show out.json 2>/dev/null)
  if [ $rc -ne 0 ] || [ -s err.txt ] || [ -z "${a_iowq:-}" ]; then
    echo "FAIL $mode: exit $rc"; head -c 2000 err.txt; fails=$((fails + 1)); continue
  fi
  got="a: io-wq=${a_iowq}us threads=$a_peak apportioned=$a_app; b: io-wq=${b_iowq}us apportioned=$b_app"
  # Neither job has a SQPOLL thread. Learning the kernel's number may take a
  # throw-away SQPOLL ring (when /proc/1 cannot be read): its thread must be
  # gone before the run, not counted as a job's.
  if [ "$sqp" -ne 0 ]; then
    echo "FAIL $mode: SQPOLL CPU without a SQPOLL ring: ${sqp}us"; fails=$((fails + 1)); continue
  fi
  if [ "$a_iowq" -le 0 ] || [ "$a_peak" -le 0 ]; then
    echo "FAIL $mode: job a's io-wq CPU or threads missing: $got"; fails=$((fails + 1)); continue
  fi
  if [ $mode = host-proc ]; then
    # exact: the kernel's number is NSpid's first entry
    if [ "$b_iowq" -ne 0 ] || [ "$a_app" -ne 0 ]; then
      echo "FAIL $mode: io-wq CPU not (only) job a's: $got"; fails=$((fails + 1)); continue
    fi
  else
    # not knowable: labelled as apportioned, in JSON and in the normal output
    if [ "$a_app" -ne 1 ] && [ "$b_iowq" -ne 0 ]; then
      echo "FAIL $mode: job b got io-wq CPU not labelled apportioned: $got"; fails=$((fails + 1)); continue
    fi
    if [ "$a_app" -eq 1 ]; then
      "${pre[@]}" "$bin" "${job[@]}" >out.txt 2>&1
      if ! grep -q "threads=[1-9][0-9]* (io-wq/sqpoll apportioned by submissions)" out.txt; then
        echo "FAIL $mode: normal output does not say apportioned:"; grep helpers out.txt
        fails=$((fails + 1)); continue
      fi
    fi
  fi
  echo "ok   $mode: $got"
done
[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
