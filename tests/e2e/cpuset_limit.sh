#!/usr/bin/env bash
# cpus_allowed / cpumask naming a CPU that the process's cgroup cpuset
# forbids: the clone's sched_setaffinity fails EINVAL. That clone fails
# alone (err=22), the others run and are reported, exit 1, as fio 3.33
# ("err=22 ... func=cpu_set_affinity"); the message names the option, where
# it was set, the CPUs asked for and the ones allowed. (iobench lost the
# whole run once, then refused it before starting, exit 2.)
# verify_async_cpus is still refused before the run. A taskset mask is no
# limit (a thread may widen it, as fio's do). Needs a writable cgroup v1
# cpuset and 2 CPUs; else skipped.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
source "$(dirname "$0")/check.bash"
bin=$(realpath "$1")
cs=/sys/fs/cgroup/cpuset
[ "$(getconf _NPROCESSORS_CONF)" -ge 2 ] || { echo "skip: one CPU"; exit 77; }
tmp=$(mktemp -d /tmp/iobench_cpuset.XXXXXX)
cg=$cs/iobench_test_$$
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$tmp"' EXIT
{ mkdir "$cg" && echo 1 >"$cg/cpuset.cpus" && cat "$cs/cpuset.mems" >"$cg/cpuset.mems"; } 2>/dev/null ||
  { echo "skip: no writable cgroup v1 cpuset"; exit 77; }
printf '[t]\ncpus_allowed=0\n[u]\ncpus_allowed=1\n' >"$tmp/j.fio"
# Runs iobench in the cgroup allowed CPU 1 only: prints the exit code; the
# terse records (job name:error:read I/Os) in $tmp/out, stderr in $tmp/err.
in_cg() {
  sh -c 'echo $$ >"$1/tasks" && shift && exec "$@"' sh "$cg" "$bin" --ioengine=null --size=1m \
    --output-format=terse "$@" >"$tmp/terse" 2>"$tmp/err"
  echo $?
  awk -F';' '{print $3 ":" $5 ":" $6}' "$tmp/terse" | paste -sd' ' >"$tmp/out"
}
why="Invalid argument"
no0="CPU 0 is not in this process's allowed CPUs (1)"
expect_eq "cpus_allowed=0: exit" "$(in_cg --name=t --cpus_allowed=0 --name=u --cpus_allowed=1)" 1
expect_eq "cpus_allowed=0: jobs" "$(cat "$tmp/out")" "t:22:0 u:0:1024"
expect_eq "cpus_allowed=0: message" "$(cat "$tmp/err")" \
  "iobench: job 't': err=22 (cpus_allowed=0 at <cmdline>: sched_setaffinity: $no0: $why)"
expect_eq "job file: exit" "$(in_cg "$tmp/j.fio")" 1
expect_eq "job file: jobs" "$(cat "$tmp/out")" "t:22:0 u:0:1024"
expect_eq "job file: message" "$(cat "$tmp/err")" \
  "iobench: job 't': err=22 (cpus_allowed=0 at $tmp/j.fio:2: sched_setaffinity: $no0: $why)"
expect_eq "cpumask=1: exit" "$(in_cg --name=t --cpumask=1)" 1
expect_eq "cpumask=1: message" "$(cat "$tmp/err")" \
  "iobench: job 't': err=22 (cpumask=1 at <cmdline>: sched_setaffinity: $no0: $why)"
expect_eq "cpus_allowed=0,2 (2 CPUs): exit" "$(in_cg --name=t --cpus_allowed=0,2)" 2
# Shared: one allowed CPU in the set is enough, as for the kernel.
expect_eq "cpus_allowed=0-1: exit" "$(in_cg --name=t --cpus_allowed=0-1)" 0
# split: each clone on one CPU of the list; clone 0 sits on CPU 0.
expect_eq "split numjobs=2: exit" \
  "$(in_cg --name=t --cpus_allowed=0-1 --cpus_allowed_policy=split --numjobs=2)" 1
expect_eq "split numjobs=2: jobs" "$(cat "$tmp/out")" "t:22:0 t:0:1024"
expect_eq "split numjobs=2: message" "$(cat "$tmp/err")" \
  "iobench: job 't' #0: err=22 (cpus_allowed=0-1 at <cmdline>: sched_setaffinity(CPU 0, cpus_allowed_policy=split): $no0: $why)"
expect_eq "cpus_allowed=1: exit" "$(in_cg --name=t --cpus_allowed=1 --numjobs=2)" 0
# split places clones by their run-wide index (fio's thread_number - 1):
# job b after a one-clone job a sits on CPU 1, which is allowed, and a
# second clone of b sits on CPU 0, which is not.
expect_eq "split, second job on CPU 1: exit" \
  "$(in_cg --name=a --cpus_allowed=1 --name=b --cpus_allowed=0-1 --cpus_allowed_policy=split)" 0
expect_eq "split, second job's clones on 1 and 0: exit" \
  "$(in_cg --name=a --cpus_allowed=1 --name=b --cpus_allowed=0-1 --cpus_allowed_policy=split \
    --numjobs=2)" 1
expect_eq "split, second job's clones: jobs" "$(cat "$tmp/out")" "a:0:1024 b:0:1024 b:22:0"
expect_eq "split, second job's clones: message" "$(cat "$tmp/err")" \
  "iobench: job 'b' #1: err=22 (cpus_allowed=0-1 at <cmdline>: sched_setaffinity(CPU 0, cpus_allowed_policy=split): $no0: $why)"
# verify_async_cpus: refused before the run, exit 2.
expect_eq "verify_async_cpus=0: exit" "$(in_cg --name=t --rw=write --verify=crc32c --verify_async=1 \
  --verify_async_cpus=0)" 2
expect_eq "verify_async_cpus=0: message" "$(cat "$tmp/err")" \
  "iobench: job 't': verify_async_cpus=0 (<cmdline>): $no0"
# taskset alone is no limit.
expect_eq "taskset -c 1, cpus_allowed=0: exit" \
  "$(taskset -c 1 "$bin" --name=t --ioengine=null --size=1m --cpus_allowed=0 --output-format=terse >/dev/null 2>&1; echo $?)" 0
[ "$fails" -eq 0 ]
