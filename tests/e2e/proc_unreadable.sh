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
# A sanitizer build's runtime needs /proc itself: it reads its options from
# /proc/self/environ, LeakSanitizer reads /proc/PID/task and turns the exit
# status to 1 without it, and ASan warns that it cannot name the executable.
# With /proc hidden, such a build's exit status and its "==PID==" lines are
# the runtime's, not iobench's: only the report and the rest of stderr count.
sanitized=0
grep -qa __asan_init "$bin" && sanitized=1
for setup in "mount --bind /dev/null /proc/sys/kernel/threads-max" \
  "mount --bind /dev/null /proc/meminfo" "mount -t tmpfs none /proc"; do
  unshare -m sh -c "$setup && exec \"\$@\"" sh "${run[@]}" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ $sanitized = 1 ] && [ "${setup#*tmpfs}" != "$setup" ] || expect_eq "$setup: exit" $rc 0
  [ $sanitized = 1 ] && sed -i '/^==[0-9]*==/d' "$tmp/err"
  expect_eq "$setup: stderr" "$(cat "$tmp/err")" ""
  expect_eq "$setup: reads" "$(cut -d';' -f6 "$tmp/out")" 1024
done
[ "$fails" -eq 0 ]
