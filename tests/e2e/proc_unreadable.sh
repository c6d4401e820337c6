#!/usr/bin/env bash
# /proc/meminfo and /proc/sys/kernel/threads-max serve only the advisory
# resource pre-check: where they cannot be read (a masked /proc in a
# container) the run goes on without that part, as fio 3.33 runs; iobench
# stopped every run (exit 2). Needs unshare -m (root); else skipped.
# Args: $1 = iobench binary, $2 = source dir. Exit 77 = skipped.
set -u
source "$(dirname "$0")/check.bash"
bin=$(realpath "$1")
unshare -m true 2>/dev/null || { echo "skip: unshare -m needs root"; exit 77; }
tmp=$(mktemp -d /tmp/iobench_proc_unreadable.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
run=("$bin" --name=x --ioengine=null --size=1m --output-format=terse)
for setup in "mount --bind /dev/null /proc/sys/kernel/threads-max" \
  "mount --bind /dev/null /proc/meminfo" "mount -t tmpfs none /proc"; do
  unshare -m sh -c "$setup && exec \"\$@\"" sh "${run[@]}" >"$tmp/out" 2>"$tmp/err"
  expect_eq "$setup: exit" $? 0
  expect_eq "$setup: stderr" "$(cat "$tmp/err")" ""
  expect_eq "$setup: reads" "$(cut -d';' -f6 "$tmp/out")" 1024
done
[ "$fails" -eq 0 ]
