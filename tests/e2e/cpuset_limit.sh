#!/usr/bin/env bash
# cpus_allowed / cpumask naming a CPU that the process's cgroup cpuset
# forbids: the clone's sched_setaffinity failed EINVAL mid-run and the whole
# run was lost ("cpus_allowed: Invalid argument", exit 1; fio 3.33 fails
# that job, err=22). Refused before the run, exit 2, naming the option,
# where it was set and the allowed CPUs. A taskset mask is no limit (a
# thread may widen it, as fio's do). Needs a writable cgroup v1 cpuset and
# 2 CPUs; else skipped.
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
printf '[t]\ncpus_allowed=0\n' >"$tmp/j.fio"
# Runs iobench in the cgroup allowed CPU 1 only: exit code; stderr in $tmp/err.
in_cg() {
  sh -c 'echo $$ >"$1/tasks" && shift && exec "$@"' sh "$cg" "$bin" --ioengine=null --size=1m \
    --output-format=terse "$@" >/dev/null 2>"$tmp/err"
  echo $?
}
want="CPU 0 is not in this process's allowed CPUs (1)"
expect_eq "cpus_allowed=0: exit" "$(in_cg --name=t --cpus_allowed=0 --name=u --cpus_allowed=1)" 2
expect_eq "cpus_allowed=0: message" "$(cat "$tmp/err")" \
  "iobench: job 't': cpus_allowed=0 (<cmdline>): $want"
expect_eq "job file: exit" "$(in_cg "$tmp/j.fio")" 2
expect_eq "job file: message" "$(cat "$tmp/err")" \
  "iobench: job 't': cpus_allowed=0 ($tmp/j.fio:2): $want"
expect_eq "cpumask=1: exit" "$(in_cg --name=t --cpumask=1)" 2
expect_eq "cpumask=1: message" "$(cat "$tmp/err")" "iobench: job 't': cpumask=1 (<cmdline>): $want"
# Shared: one allowed CPU in the set is enough, as for the kernel.
expect_eq "cpus_allowed=0-1: exit" "$(in_cg --name=t --cpus_allowed=0-1)" 0
# split: each clone on one CPU of the list.
expect_eq "split numjobs=2: exit" \
  "$(in_cg --name=t --cpus_allowed=0-1 --cpus_allowed_policy=split --numjobs=2)" 2
expect_eq "split numjobs=2: message" "$(cat "$tmp/err")" \
  "iobench: job 't': cpus_allowed=0-1 (<cmdline>): $want"
expect_eq "cpus_allowed=1: exit" "$(in_cg --name=t --cpus_allowed=1 --numjobs=2)" 0
# split places clones by their run-wide index (fio's thread_number - 1):
# job b after a one-clone job a sits on CPU 1, which is allowed, and a
# second clone of b would sit on CPU 0, which is not.
expect_eq "split, second job on CPU 1: exit" \
  "$(in_cg --name=a --cpus_allowed=1 --name=b --cpus_allowed=0-1 --cpus_allowed_policy=split)" 0
expect_eq "split, second job's clones on 1 and 0: exit" \
  "$(in_cg --name=a --cpus_allowed=1 --name=b --cpus_allowed=0-1 --cpus_allowed_policy=split \
    --numjobs=2)" 2
expect_eq "split, second job's clones: message" "$(cat "$tmp/err")" \
  "iobench: job 'b': cpus_allowed=0-1 (<cmdline>): $want"
# ... and with CPU 0 allowed only, job b's clone on CPU 1 is refused.
echo 0 >"$cg/cpuset.cpus"
expect_eq "split, second job on CPU 1 outside cpuset 0: exit" \
  "$(in_cg --name=a --cpus_allowed=0 --name=b --cpus_allowed=0-1 --cpus_allowed_policy=split)" 2
expect_eq "split, second job on CPU 1 outside cpuset 0: message" "$(cat "$tmp/err")" \
  "iobench: job 'b': cpus_allowed=0-1 (<cmdline>): CPU 1 is not in this process's allowed CPUs (0)"
echo 1 >"$cg/cpuset.cpus"
# taskset alone is no limit.
expect_eq "taskset -c 1, cpus_allowed=0: exit" \
  "$(taskset -c 1 "$bin" --name=t --ioengine=null --size=1m --cpus_allowed=0 --output-format=terse >/dev/null 2>&1; echo $?)" 0
[ "$fails" -eq 0 ]
